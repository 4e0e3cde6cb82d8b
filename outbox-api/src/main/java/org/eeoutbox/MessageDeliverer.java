package org.eeoutbox;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Delivers entries of one delivery type, such as {@code "http"} or {@code "kafka"}.
 *
 * <p>Contract:
 * <ul>
 *   <li>{@link #deliver} and {@link #deliverBatch} MUST NOT throw: every failure, including an
 *       entry whose metadata cannot be read, is reported as a {@link DeliveryResult}.</li>
 *   <li>{@link #deliverBatch} returns exactly one result per entry, in input order; one failing
 *       entry never aborts the others.</li>
 *   <li>Every attempt carries {@link OutboxHeaders#OUTBOX_ID} with the entry's id.</li>
 *   <li>Implementations are thread-safe: processors with a concurrency above one call them from
 *       several threads at once.</li>
 * </ul>
 * The processor calls them while the transaction that holds the claim on the entries is open,
 * so a batch must finish well within that transaction's timeout. A claimed batch that holds
 * several delivery types calls their deliverers at once, on different threads, so that a slow
 * transport does not hold up another: a deliverer must not rely on running on the thread of
 * that transaction, nor use it.
 */
public interface MessageDeliverer {

    /** Returns the delivery type this deliverer handles; constant for the deliverer's life. */
    String deliveryType();

    /** Makes one delivery attempt for the entry. */
    DeliveryResult deliver(OutboxEntry entry);

    /**
     * Makes one delivery attempt for each entry. The default delivers one after another;
     * transports override it to send a batch concurrently or in one round trip.
     *
     * @return one result per entry, in input order
     */
    default List<DeliveryResult> deliverBatch(List<OutboxEntry> entries) {
        List<DeliveryResult> results = new ArrayList<>(entries.size());
        for (OutboxEntry entry : entries) {
            results.add(deliver(entry));
        }
        return results;
    }

    /**
     * Returns the longest one {@link #deliverBatch} call of {@code batchSize} entries can take,
     * when the transport bounds it (by its timeouts). The runtime checks at startup that the
     * processor's transaction timeout exceeds it, so a slow receiver can never outlive the claim.
     * The default, empty, means unbounded or unknown: nothing is checked.
     */
    default Optional<Duration> maxBatchDuration(int batchSize) {
        return Optional.empty();
    }

    /**
     * Returns a short text naming where {@code entry} goes, for log lines such as the processor's
     * warning for an entry that ends {@code FAILED}: for example {@code POST https://billing/hooks}
     * or {@code topic 'order-events'}. It must hold no secret (no credentials, no query string) and
     * make no remote call. The default returns the delivery type.
     *
     * <p>May throw on unreadable metadata: the processor then falls back to the delivery type.
     */
    default String describeDestination(OutboxEntry entry) {
        return entry.deliveryType();
    }
}
