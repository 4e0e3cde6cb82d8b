package org.eeoutbox.engine;

import java.security.SecureRandom;
import java.util.UUID;

/**
 * Time-ordered UUIDs (RFC 9562 version 7): a 48-bit millisecond timestamp followed by random
 * bits. Ids issued close in time sort close together, so inserts append to the primary-key index
 * instead of scattering over it. Thread-safe.
 */
public final class UuidV7 {

    private static final SecureRandom RANDOM = new SecureRandom();

    private UuidV7() {
    }

    /** Returns a new version 7 UUID for the current time. */
    public static UUID next() {
        long millis = System.currentTimeMillis();
        long randA = RANDOM.nextLong();
        long randB = RANDOM.nextLong();
        long msb = (millis << 16) | 0x7000L | (randA & 0x0FFFL);
        long lsb = (randB & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(msb, lsb);
    }
}
