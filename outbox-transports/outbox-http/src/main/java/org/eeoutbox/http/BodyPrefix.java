package org.eeoutbox.http;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The first bytes of a response body, and the collector that keeps them.
 *
 * @param bytes     at most the limit
 * @param truncated whether the body went on (or may have gone on) past {@code bytes}
 */
record BodyPrefix(byte[] bytes, boolean truncated) {

    /**
     * Keeps at most {@code limit} bytes of a body as they arrive, until it is finished: at the
     * body's end, when more than the limit arrives, or when cut short. Thread-safe.
     */
    static final class Collector {

        private final byte[] buffer;
        private int size;
        private BodyPrefix finished;

        Collector(int limit) {
            this.buffer = new byte[limit];
        }

        /**
         * Appends what {@code item} holds up to the limit. Returns the (truncated) prefix if this
         * call went past the limit and so finished the collector, else {@code null}; ignores the
         * item once finished.
         */
        synchronized BodyPrefix append(ByteBuffer item) {
            if (finished != null) {
                return null;
            }
            int n = Math.min(item.remaining(), buffer.length - size);
            item.get(buffer, size, n);
            size += n;
            return item.hasRemaining() ? finish(true) : null;
        }

        /** Finishes at the body's end; returns the whole body, or {@code null} if already finished. */
        synchronized BodyPrefix end() {
            return finished == null ? finish(false) : null;
        }

        /**
         * Finishes early with what has arrived, marked truncated; returns that, or the prefix the
         * collector had already finished with.
         */
        synchronized BodyPrefix cut() {
            return finished == null ? finish(true) : finished;
        }

        /** Whether the collector is finished. */
        synchronized boolean isFinished() {
            return finished != null;
        }

        private BodyPrefix finish(boolean truncated) {
            finished = new BodyPrefix(Arrays.copyOf(buffer, size), truncated);
            return finished;
        }
    }
}
