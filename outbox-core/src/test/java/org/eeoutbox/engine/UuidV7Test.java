package org.eeoutbox.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class UuidV7Test {

    private static final int COUNT = 10_000;

    @Test
    void everyIdIsVersion7WithTheRfcVariantAndTheCurrentMillisecond() {
        for (int i = 0; i < COUNT; i++) {
            long before = System.currentTimeMillis();
            UUID id = UuidV7.next();
            long after = System.currentTimeMillis();

            assertEquals(7, id.version(), id.toString());
            assertEquals(2, id.variant(), id.toString());
            long millis = id.getMostSignificantBits() >>> 16;
            assertTrue(millis >= before && millis <= after, id + " carries " + millis + ", not in [" + before
                    + ", " + after + "]");
        }
    }

    @Test
    void idsOfLaterMillisecondsSortAfterEarlierOnes() throws InterruptedException {
        UUID earlier = UuidV7.next();
        Thread.sleep(2);
        UUID later = UuidV7.next();

        assertTrue(Long.compareUnsigned(earlier.getMostSignificantBits(), later.getMostSignificantBits()) < 0,
                earlier + " should sort before " + later);
        assertTrue(earlier.toString().compareTo(later.toString()) < 0, "text order too");
    }

    @Test
    void idsIssuedOneAfterAnotherIncreaseStrictlyEvenWithinOneMillisecond() {
        UUID previous = UuidV7.next();
        int sameMillisecond = 0;
        for (int i = 0; i < COUNT; i++) {
            UUID id = UuidV7.next();
            assertTrue(id.compareTo(previous) > 0 && id.toString().compareTo(previous.toString()) > 0,
                    previous + " then " + id);
            if (id.getMostSignificantBits() >>> 16 == previous.getMostSignificantBits() >>> 16) {
                sameMillisecond++;
            }
            previous = id;
        }
        assertTrue(sameMillisecond > 0, "some ids shared a millisecond, so the counter was exercised");
    }

    @Test
    void allSeventyThreeRandomBitsVary() {
        Set<UUID> ids = new HashSet<>();
        long randAOr = 0;
        long randAAnd = -1;
        long randBOr = 0;
        long randBAnd = -1;
        for (int i = 0; i < COUNT; i++) {
            UUID id = UuidV7.next();
            ids.add(id);
            long randA = id.getMostSignificantBits() & 0x0FFFL;
            long randB = id.getLeastSignificantBits() & 0x3FFF_FFFF_FFFF_FFFFL;
            randAOr |= randA;
            randAAnd &= randA;
            randBOr |= randB;
            randBAnd &= randB;
        }

        assertEquals(COUNT, ids.size(), "no duplicates");
        // Over 10,000 ids a random bit is 1 at least once and 0 at least once, bar a 2^-10000 chance.
        // rand_a starts below 2,048 in each millisecond: its 11 low bits are random.
        assertEquals(0x07FFL, randAOr & 0x07FFL, "every random rand_a bit is sometimes 1");
        assertEquals(0L, randAAnd, "every rand_a bit is sometimes 0");
        assertEquals(0x3FFF_FFFF_FFFF_FFFFL, randBOr, "every rand_b bit is sometimes 1");
        assertEquals(0L, randBAnd, "every rand_b bit is sometimes 0");
    }
}
