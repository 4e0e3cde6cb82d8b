package org.eeoutbox.engine;

/**
 * Observes the processor, for metrics and for applications. Callbacks run on the worker's thread
 * after the batch's transaction ended, never inside it (except {@link #onPublishCommitted}). A callback that throws is logged and
 * does not stop processing. Implementations are thread-safe.
 */
public interface OutboxListener {

    /** Called after a batch committed; never for a batch whose commit failed. */
    default void onBatchCommitted(BatchReport report) {
    }

    /** Called after a batch rolled back or failed to commit; its entries stay as they were. */
    default void onBatchFailed(RuntimeException error) {
    }

    /**
     * Called after a lease-mode batch was written, when some of its leases had been lost: they
     * expired before the outcome was written and other claims took the entries, whose newer state
     * was kept (those entries are not in the batch's report). Each lost lease may mean a message
     * delivered twice.
     *
     * @param count the leases lost, {@code >= 1}
     */
    default void onLeasesLost(int count) {
    }

    /**
     * Called after a transaction that published on this instance committed, on the committing
     * thread: it must only hand work to an executor. Readers of the table that poll (a feed) read
     * at once instead of at their next poll.
     */
    default void onPublishCommitted() {
    }
}
