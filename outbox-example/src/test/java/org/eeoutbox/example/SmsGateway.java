package org.eeoutbox.example;

import java.io.IOException;

/** The client {@link SmsDeliverer} stands for: an application's own, thread-safe. */
public interface SmsGateway {

    /** Sends {@code text} to {@code phone}, tagged with {@code messageId} for the gateway's deduplication. */
    void send(String phone, String text, String messageId) throws IOException;
}
