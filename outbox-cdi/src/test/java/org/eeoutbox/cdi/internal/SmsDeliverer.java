package org.eeoutbox.cdi.internal;

import java.net.URI;
import java.time.Duration;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.OutboxEntry;

/** The deliverer {@link SmsTransportProvider} creates; it keeps its settings for the test to see. */
record SmsDeliverer(URI gateway, Duration timeout) implements MessageDeliverer {

    @Override
    public String deliveryType() {
        return "sms";
    }

    @Override
    public DeliveryResult deliver(OutboxEntry entry) {
        return DeliveryResult.retriable("no gateway in this test");
    }
}
