package org.eeoutbox.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class RetryAfterTest {

    private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

    @Test
    void deltaSecondsCountFromNow() {
        assertEquals(NOW.plusSeconds(120), RetryAfter.parse("120", NOW));
        assertEquals(NOW.plusSeconds(7), RetryAfter.parse(" 7 ", NOW));
    }

    @Test
    void zeroAbsentBlankAndGarbageGiveNothing() {
        assertNull(RetryAfter.parse("0", NOW));
        assertNull(RetryAfter.parse(null, NOW));
        assertNull(RetryAfter.parse("", NOW));
        assertNull(RetryAfter.parse("-5", NOW));
        assertNull(RetryAfter.parse("soon", NOW));
        assertNull(RetryAfter.parse("1.5", NOW));
    }

    @Test
    void httpDatesInAllThreeFormsAreRead() {
        Instant expected = Instant.parse("2030-01-01T00:05:00Z");
        assertEquals(expected, RetryAfter.parse("Tue, 01 Jan 2030 00:05:00 GMT", NOW));
        assertEquals(expected, RetryAfter.parse("Tuesday, 01-Jan-30 00:05:00 GMT", NOW));
        assertEquals(expected, RetryAfter.parse("Tue Jan  1 00:05:00 2030", NOW));
    }

    @Test
    void pastDateGivesNothing() {
        assertNull(RetryAfter.parse("Mon, 31 Dec 2029 23:59:59 GMT", NOW));
    }

    @Test
    void farFutureIsCutToOneDay() {
        assertEquals(NOW.plus(RetryAfter.MAX_DELAY), RetryAfter.parse("999999999999999999999", NOW));
        assertEquals(NOW.plus(RetryAfter.MAX_DELAY), RetryAfter.parse("172800", NOW));
        assertEquals(NOW.plus(RetryAfter.MAX_DELAY), RetryAfter.parse("Fri, 01 Jan 2100 00:00:00 GMT", NOW));
    }
}
