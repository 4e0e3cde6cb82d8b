package org.eeoutbox.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.eeoutbox.DeliveryInfo;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxMessage;
import org.junit.jupiter.api.Test;

/** The custom deliverer of docs/transports.md keeps the {@code MessageDeliverer} rules the page states. */
class SmsDelivererTest {

    private final List<String> sent = new ArrayList<>();

    @Test
    void theDeliveryStoresAJsonObjectThatTheDelivererReadsBack() {
        OutboxEntry entry = entry(new SmsDelivery("+41 79 555 01 02"));

        assertEquals("{\"phone\":\"+41 79 555 01 02\"}", entry.deliveryMetadata());
        assertEquals(DeliveryResult.delivered(), deliverer(false).deliver(entry));
        assertEquals(List.of("+41 79 555 01 02 hello " + entry.id()), sent);
    }

    @Test
    void unreadableMetadataIsPermanentAndAFailingGatewayRetriableWithoutThrowing() {
        OutboxEntry tampered = entry(new DeliveryInfo() {
            public String deliveryType() {
                return "sms";
            }

            public String metadataJson() {
                return "{\"number\":\"+41\"}";
            }
        });

        assertInstanceOf(DeliveryResult.PermanentFailure.class, deliverer(false).deliver(tampered));
        DeliveryResult down = deliverer(true).deliver(entry(new SmsDelivery("+41")));
        assertInstanceOf(DeliveryResult.RetriableFailure.class, down);
        assertTrue(down.toString().contains("SMS gateway: connection refused"), down.toString());
        assertEquals(List.of(), sent);
    }

    private SmsDeliverer deliverer(boolean gatewayDown) {
        SmsDeliverer deliverer = new SmsDeliverer();
        deliverer.gateway = (phone, text, messageId) -> {
            if (gatewayDown) {
                throw new IOException("connection refused");
            }
            sent.add(phone + " " + text + " " + messageId);
        };
        return deliverer;
    }

    private static OutboxEntry entry(DeliveryInfo delivery) {
        return OutboxEntry.create(UUID.randomUUID(), new OutboxMessage("greeting", "hello"), delivery, Instant.now());
    }
}
