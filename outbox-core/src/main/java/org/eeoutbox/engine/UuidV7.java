package org.eeoutbox.engine;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Time-ordered UUIDs (RFC 9562 version 7): a 48-bit millisecond timestamp followed by random
 * bits. Ids issued close in time sort close together, so inserts append to the primary-key index
 * instead of scattering over it. Within this JVM ids also increase strictly, in the order they
 * are issued: the timestamp and the 12 bits of {@code rand_a} form a counter (RFC 9562, section
 * 6.2, method 3) that starts at a random value below 2,048 in each millisecond and goes on from
 * the last id when the clock stands still or steps back, borrowing from the next millisecond only
 * after at least 2,048 ids in one. Across
 * instances, ids of the same millisecond are ordered at random. Thread-safe.
 */
final class UuidV7 {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** The random bits: 12 of {@code rand_a} (in 2 bytes) and 62 of {@code rand_b} (in 8). */
    private static final int RANDOM_BYTES = 10;

    /** The last {@code unix_ts_ms << 12 | rand_a} issued. */
    private static final AtomicLong LAST = new AtomicLong();

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
        // A random start in the lower half leaves room for 2,048 more ids in the same millisecond.
        long candidate = (millis << 12) | (bits.getShort() & 0x07FFL);
        long counter = LAST.accumulateAndGet(candidate, (last, next) -> Math.max(last + 1, next));
        long randB = bits.getLong();
        long msb = ((counter >>> 12) << 16) | 0x7000L | (counter & 0x0FFFL);
        long lsb = (randB & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(msb, lsb);
    }
}
