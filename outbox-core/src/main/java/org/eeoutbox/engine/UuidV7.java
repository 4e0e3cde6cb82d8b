package org.eeoutbox.engine;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.UUID;

/**
 * Time-ordered UUIDs (RFC 9562 version 7): a 48-bit millisecond timestamp followed by random
 * bits. Ids issued close in time sort close together, so inserts append to the primary-key index
 * instead of scattering over it. Ids issued within the same millisecond are ordered at random
 * (no counter). Thread-safe.
 */
final class UuidV7 {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** The random bits: 12 of {@code rand_a} (in 2 bytes) and 62 of {@code rand_b} (in 8). */
    private static final int RANDOM_BYTES = 10;

    private UuidV7() {
    }

    /** Returns a new version 7 UUID for the current time. */
    public static UUID next() {
        long millis = System.currentTimeMillis();
        // One call into the PRNG per id: each SecureRandom call is synchronized and, with the
        // default NativePRNG, reads the native source.
        byte[] random = new byte[RANDOM_BYTES];
        RANDOM.nextBytes(random);
        ByteBuffer bits = ByteBuffer.wrap(random);
        long randA = bits.getShort() & 0x0FFFL;
        long randB = bits.getLong();
        long msb = (millis << 16) | 0x7000L | randA;
        long lsb = (randB & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(msb, lsb);
    }
}
