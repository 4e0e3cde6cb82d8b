package org.eeoutbox.feed.sse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** A channel name: checked at publish, naming the argument; the channel is the ordering key. */
class FeedDeliveryTest {

    @Test
    void aChannelIsTheOrderingKeyOfAFeedEntry() {
        FeedDelivery delivery = FeedDelivery.to("orders.eu-1_~");

        assertEquals("feed", delivery.deliveryType());
        assertEquals("orders.eu-1_~", delivery.orderingKey());
        assertEquals("{\"channel\":\"orders.eu-1_~\"}", delivery.metadataJson());
    }

    @Test
    void invalidChannelsAreRefusedNamingTheArgument() {
        for (String bad : new String[] {"", "a b", "a/b", "é", "\"", "x".repeat(256)}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FeedDelivery.to(bad));
            assertEquals("channel must be 1 to 255 letters, digits and . _ ~ -, got: '" + bad + "'", e.getMessage());
        }
        assertEquals("channel must be 1 to 255 letters, digits and . _ ~ -, got: null",
                assertThrows(IllegalArgumentException.class, () -> FeedDelivery.to(null)).getMessage());
        assertEquals(255, FeedDelivery.to("x".repeat(255)).channel().length());
    }
}
