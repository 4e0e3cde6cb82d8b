package org.eeoutbox.admin;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.eeoutbox.OutboxStatus;

/**
 * The state of the outbox at a glance.
 *
 * @param counts           entries per status, then per delivery type, for every status but
 *                         {@code DELIVERED} (the delivered history is not counted: it can hold
 *                         millions of rows; statuses and types without entries are absent)
 * @param oldestPendingAge how long the oldest {@code PENDING} entry has waited since it was
 *                         published; zero when none
 * @param stuck            {@code PENDING} entries overdue by more than the threshold asked for
 * @param paused           the paused delivery types
 */
public record OutboxOverview(Map<OutboxStatus, Map<String, Long>> counts, Duration oldestPendingAge, long stuck,
                             List<Pause> paused) {

    public OutboxOverview {
        counts = Map.copyOf(counts);
        paused = List.copyOf(paused);
    }
}
