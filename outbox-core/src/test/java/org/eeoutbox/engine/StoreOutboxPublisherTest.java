package org.eeoutbox.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.eeoutbox.DeliveryInfo;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxStatus;
import org.junit.jupiter.api.Test;

/** Hostile input at publish: rejected with a message naming the argument, and nothing written. */
class StoreOutboxPublisherTest {

    private static final int LIMIT = 1024;
    /** An {@code http} delivery with empty metadata. */
    static final DeliveryInfo DELIVERY = new DeliveryInfo() {
        @Override
        public String deliveryType() {
            return "http";
        }

        @Override
        public String metadataJson() {
            return "{}";
        }
    };

    private final InMemoryStore store = new InMemoryStore();
    private final StoreOutboxPublisher publisher = new StoreOutboxPublisher(store, LIMIT,
            Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC));

    @Test
    void payloadOverTheLimitInUtf8BytesIsRejectedAndNothingIsWritten() {
        // 512 characters, 1,025 bytes of UTF-8: over the limit although shorter in characters.
        String payload = "\u00e9".repeat(512) + "x";

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> publisher.publish(new OutboxMessage("order.created", payload), DELIVERY));

        assertEquals("payload must be at most 1024 bytes of UTF-8, got: 1025 bytes (message type order.created)",
                e.getMessage());
        assertEquals(0, store.rows.size());
    }

    @Test
    void payloadAtTheLimitIsWritten() {
        publisher.publish(new OutboxMessage("order.created", "\u00e9".repeat(512)), DELIVERY);

        assertEquals(1, store.rows.size());
    }

    @Test
    void payloadWithAnUnpairedSurrogateIsRejectedAndNothingIsWritten() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> publisher.publish(new OutboxMessage("order.created", "{\"a\":\"\uDC00\"}"), DELIVERY));

        assertTrue(e.getMessage().startsWith("payload"), e.getMessage());
        assertEquals(0, store.rows.size());
    }

    @Test
    void hundredKibibyteMessageTypeIsRejectedWithoutRepeatingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new OutboxMessage("t".repeat(100 * 1024), "{}"));

        assertEquals("messageType must be at most 255 characters, got: 102400 characters", e.getMessage());
    }

    @Test
    void nullMessageOrDeliveryIsRejectedAndNothingIsWritten() {
        OutboxMessage message = new OutboxMessage("order.created", "{}");

        assertEquals("message must not be null",
                assertThrows(IllegalArgumentException.class, () -> publisher.publish(null, DELIVERY)).getMessage());
        assertEquals("deliveryInfo must not be null",
                assertThrows(IllegalArgumentException.class, () -> publisher.publish(message, null)).getMessage());
        assertEquals(0, store.rows.size());
    }

    @Test
    void aDeliveryTypeCompleteAtPublishIsWrittenDeliveredUnderTheOrderingKeyItImposes() {
        DeliveryInfo channel = new DeliveryInfo() {
            @Override
            public String deliveryType() {
                return "feed";
            }

            @Override
            public String metadataJson() {
                return "{}";
            }

            @Override
            public String orderingKey() {
                return "news";
            }
        };
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        StoreOutboxPublisher feeds = new StoreOutboxPublisher(store, LIMIT, Clock.fixed(now, ZoneOffset.UTC),
                org.eeoutbox.spi.DeliveryTracing.NONE, java.util.Set.of("feed"));

        OutboxEntry feed = store.rows.get(feeds.publish(new OutboxMessage("n", "{}"), channel));
        OutboxEntry http = store.rows.get(feeds.publish(new OutboxMessage("n", "{}"), DELIVERY));

        assertEquals(OutboxStatus.DELIVERED, feed.status());
        assertEquals(now, feed.deliveredAt());
        assertEquals("news", feed.orderingKey());
        assertEquals(OutboxStatus.PENDING, http.status());
        assertEquals("message.orderingKey() 'other' differs from the ordering key 'news' its 'feed' delivery imposes;"
                + " leave the message's ordering key unset", assertThrows(IllegalArgumentException.class,
                () -> feeds.publish(new OutboxMessage("n", "{}", null, "other"), channel)).getMessage());
        assertEquals(2, store.rows.size());
    }
}
