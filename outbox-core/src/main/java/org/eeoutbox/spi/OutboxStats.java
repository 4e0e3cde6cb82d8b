package org.eeoutbox.spi;

import java.time.Duration;

/**
 * A snapshot of the outbox for gauges.
 *
 * @param pending          entries waiting for delivery
 * @param failed           entries that failed for good
 * @param oldestPendingAge how long the oldest pending entry has waited; zero when none waits
 * @param blockedKeys      ordering keys held up by a {@code FAILED} head under
 *                         {@link HeadFailurePolicy#BLOCK}; always 0 under {@link HeadFailurePolicy#SKIP}
 */
public record OutboxStats(long pending, long failed, Duration oldestPendingAge, long blockedKeys) {
}
