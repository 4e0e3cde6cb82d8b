package org.eeoutbox.engine;

import java.time.Duration;
import java.util.List;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.OutboxEntry;

/**
 * What one committed batch did: each claimed entry's new state and the delivery result that led
 * there, in claim order.
 *
 * @param outcomes one per claimed entry
 * @param duration from the claim to the commit
 */
public record BatchReport(List<Outcome> outcomes, Duration duration) {

    public BatchReport {
        outcomes = List.copyOf(outcomes);
    }

    /**
     * One entry's outcome.
     *
     * @param entry  the entry after its transition, as committed
     * @param result the delivery result that decided the transition
     */
    public record Outcome(OutboxEntry entry, DeliveryResult result) {
    }

    /** Returns the number of entries in the batch. */
    public int size() {
        return outcomes.size();
    }
}
