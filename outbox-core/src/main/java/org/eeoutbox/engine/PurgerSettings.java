package org.eeoutbox.engine;

import java.time.Duration;
import java.util.Objects;

/**
 * How an {@link OutboxPurger} deletes delivered and discarded entries.
 *
 * @param retention           how long delivered entries are kept, {@code > 0}; default 7 days
 * @param deduplicationWindow how long a delivered entry with a deduplication key is kept so a late
 *                            duplicate publish is still caught; the longer of this and
 *                            {@code retention} applies. Default: the retention
 * @param discardedRetention  how long {@code DISCARDED} entries are kept for audit, counted from
 *                            when they were discarded, {@code > 0}; default 30 days
 * @param batchSize           entries deleted per transaction, in {@code [1, 100000]}; default 1000
 * @param timeBudget          how long one purge keeps deleting full batches, {@code > 0}; default
 *                            10 s
 */
public record PurgerSettings(Duration retention, Duration deduplicationWindow, Duration discardedRetention, int batchSize,
                             Duration timeBudget) {

    /** The largest purge batch accepted, {@value}. */
    public static final int MAX_BATCH_SIZE = 100_000;

    /** 7 days' retention, keys kept as long, discarded entries 30 days, batches of 1000, a 10 s budget. */
    public static final PurgerSettings DEFAULT = new PurgerSettings(Duration.ofDays(7), Duration.ofDays(7),
            Duration.ofDays(30), 1000, Duration.ofSeconds(10));

    public PurgerSettings {
        requirePositive("retention", retention);
        requirePositive("deduplicationWindow", deduplicationWindow);
        requirePositive("discardedRetention", discardedRetention);
        requirePositive("timeBudget", timeBudget);
        if (batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
            throw new IllegalArgumentException("batchSize must be in [1, " + MAX_BATCH_SIZE + "], got: " + batchSize);
        }
    }

    private static void requirePositive(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be > 0, got: " + value);
        }
    }
}
