package org.eeoutbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class OutboxMessageTest {

    @Test
    void rejectsBadArgumentsNamingThem() {
        assertNames("messageType", () -> new OutboxMessage(null, "{}"));
        assertNames("messageType", () -> new OutboxMessage("  ", "{}"));
        assertNames("messageType", () -> new OutboxMessage("x".repeat(100 * 1024), "{}"));
        assertNames("payload", () -> new OutboxMessage("t", null));
        assertNames("deduplicationKey", () -> new OutboxMessage("t", "{}", ""));
        assertNames("deduplicationKey", () -> new OutboxMessage("t", "{}", "k".repeat(256)));
        assertNames("messageType", () -> new OutboxMessage("bad\uDC00", "{}"));
    }

    @Test
    void rejectsHostileOrderingKeysNamingThem() {
        OutboxMessage message = new OutboxMessage("t", "{}");
        assertNames("orderingKey", () -> message.withOrderingKey(""));
        assertNames("orderingKey", () -> message.withOrderingKey(" \t"));
        assertNames("orderingKey", () -> message.withOrderingKey("k".repeat(256)));
        assertNames("orderingKey", () -> message.withOrderingKey("order-\uD83D"));
        assertNames("orderingKey", () -> message.withOrderingKey("\uDE80order"));
        assertEquals("k".repeat(255), message.withOrderingKey("k".repeat(255)).orderingKey());
    }

    @Test
    void copiesKeepTheOtherKey() {
        OutboxMessage message = new OutboxMessage("t", "{}").withOrderingKey("order-42").withDeduplicationKey("d");
        assertEquals("order-42", message.orderingKey());
        assertEquals("order-42", message.withDeduplicationKey("e").orderingKey());
        assertEquals("d", message.withOrderingKey("order-43").deduplicationKey());
    }

    @Test
    void payloadLengthCountsUtf8Bytes() {
        assertEquals(1 + 2 + 3 + 4, new OutboxMessage("t", "a\u00e9\u65e5\uD83D\uDE80").payloadUtf8Length());
    }

    @Test
    void payloadWithAnUnpairedSurrogateIsRejected() {
        OutboxMessage message = new OutboxMessage("t", "\uD83D");
        assertNames("payload", message::payloadUtf8Length);
    }

    private static void assertNames(String argument, Runnable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call::run);
        assertTrue(e.getMessage().startsWith(argument), e.getMessage());
    }
}
