package org.eeoutbox.admin;

import java.time.Duration;

/**
 * How a bulk {@link OutboxAdmin#replay(EntryFilter, BulkRequest) replay} or
 * {@link OutboxAdmin#discard(EntryFilter, BulkRequest) discard} runs.
 *
 * @param dryRun  count the matching entries and change nothing
 * @param maximum refuse, changing nothing, when more entries than this match; 1 to
 *                {@value #MAX_MAXIMUM}
 * @param spread  for a replay, the window over which the entries' due times are spread at
 *                random (zero: all due now); ignored by a discard; 0 to 24 hours
 */
public record BulkRequest(boolean dryRun, int maximum, Duration spread) {

    /** The largest {@link #maximum()} accepted. */
    public static final int MAX_MAXIMUM = 100_000;

    /** The most entries one transaction of a bulk operation changes. */
    public static final int BATCH_SIZE = 500;

    /** @throws IllegalArgumentException naming the argument out of range */
    public BulkRequest {
        if (maximum < 1 || maximum > MAX_MAXIMUM) {
            throw new IllegalArgumentException("maximum must be 1 to " + MAX_MAXIMUM + ", got: " + maximum);
        }
        if (spread == null || spread.isNegative() || spread.compareTo(Duration.ofHours(24)) > 0) {
            throw new IllegalArgumentException("spread must be 0 to 24 hours, got: " + spread);
        }
    }
}
