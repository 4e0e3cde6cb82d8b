package org.eeoutbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class TraceContextTest {

    private static final String PARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    @Test
    void readsTheIdsAndTheSampledFlag() {
        TraceContext context = new TraceContext(PARENT, "rojo=00f067aa0ba902b7");
        assertEquals("0af7651916cd43dd8448eb211c80319c", context.traceId());
        assertEquals("b7ad6b7169203331", context.spanId());
        assertTrue(context.sampled());
        assertFalse(new TraceContext(PARENT.replace("-01", "-00"), null).sampled());
    }

    @Test
    void parseDropsAnInvalidTraceparentInsteadOfThrowing() {
        assertNull(TraceContext.parse(null, "a=1"));
        assertNull(TraceContext.parse("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331", null));
        assertNull(TraceContext.parse(PARENT.toUpperCase(), null));
        assertNull(TraceContext.parse("00-00000000000000000000000000000000-b7ad6b7169203331-01", null));
        assertNull(TraceContext.parse("00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01", null));
        assertNull(TraceContext.parse("01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", null));
        assertNull(TraceContext.parse(PARENT + "\r\nx: y", null));
    }

    @Test
    void parseKeepsOnlyValidTracestateMembers() {
        assertEquals("a=1,b=2", TraceContext.parse(PARENT, " a=1 ,,b=2, c\u0001=3,=x ").tracestate());
        assertNull(TraceContext.parse(PARENT, " , ").tracestate());
    }

    @Test
    void parseCutsATracestateToTheW3cLimitsLongMembersFirstThenFromTheEnd() {
        List<String> members = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            members.add("k" + i + "=v");
        }
        assertEquals(TraceContext.MAX_TRACESTATE_MEMBERS,
                TraceContext.parse(PARENT, String.join(",", members)).tracestate().split(",").length);

        String longMember = "long=" + "x".repeat(200);
        String shortOnes = String.join(",", Collections.nCopies(30, "s=" + "y".repeat(8)));
        String cut = TraceContext.parse(PARENT, "first=1," + longMember + "," + shortOnes).tracestate();
        assertFalse(cut.contains("long="), "the long member goes first");
        assertTrue(cut.startsWith("first=1,"));
        assertTrue(cut.length() <= TraceContext.MAX_TRACESTATE_LENGTH);

        String many = String.join(",", Collections.nCopies(30, "m=" + "z".repeat(20)));
        String fromTheEnd = TraceContext.parse(PARENT, "first=1," + many).tracestate();
        assertTrue(fromTheEnd.startsWith("first=1,") && fromTheEnd.length() <= TraceContext.MAX_TRACESTATE_LENGTH);
    }

    @Test
    void theConstructorRefusesWhatParseWouldRepairNamingTheValue() {
        IllegalArgumentException parent = assertThrows(IllegalArgumentException.class,
                () -> new TraceContext("garbage", null));
        assertTrue(parent.getMessage().contains("traceparent") && parent.getMessage().contains("garbage"));
        assertThrows(IllegalArgumentException.class, () -> new TraceContext(PARENT, "a=1\n"));
    }
}
