package org.eeoutbox.engine;

import java.time.Duration;
import java.util.Objects;
import org.eeoutbox.RetryPolicy;

/**
 * How an {@link OutboxProcessor} claims and retries.
 *
 * @param batchSize   entries claimed per transaction, in {@code [1, 10000]}; default 100
 * @param concurrency workers draining at once, each in its own transactions, in {@code [1, 64]};
 *                    default 1. The workers beyond the first start when the first finds a backlog
 *                    (a full batch or a released ordering key)
 * @param retryPolicy the backoff for retriable failures
 * @param drainBudget how long one pass keeps claiming while batches come back full, {@code > 0};
 *                    default 5 s
 * @param dispatch    on which threads a batch's deliveries run: on the executor, at once, or on the
 *                    worker's thread, one delivery type after another; default
 *                    {@link TransportDispatch#PARALLEL}
 * @param fullScanInterval how often a claim scans from the oldest due entry, {@code >= 0}; in
 *                    between, claims start one interval before the oldest entry the last claims
 *                    found, which skips what delivered entries leave at the front of the claim's
 *                    index (PostgreSQL, until VACUUM). Entries that become claimable below that
 *                    start (a lease expired, a delivery type resumed, a transaction committed
 *                    more than an interval after writing its entries) wait up to about an
 *                    interval longer. Zero: every claim scans from the oldest. Default 1 s
 */
public record ProcessorSettings(int batchSize, int concurrency, RetryPolicy retryPolicy, Duration drainBudget,
                                TransportDispatch dispatch, Duration fullScanInterval) {

    /** How the groups of one batch (its entries of each delivery type) are delivered. */
    public enum TransportDispatch {
        /**
         * All groups at once, on the processor's executor (a managed executor inside a server); a
         * batch costs about its slowest group. While a full lock-mode batch (a backlog) is
         * delivered, the worker writes it as delivered in its transaction, then writes again the
         * entries that were not, before the commit: the database's update overlaps the wait for
         * the acknowledgements. A short batch, and one after a lock-mode batch whose deliveries
         * took under 0.2 ms, would gain less than the hand-over costs: it is written after its
         * deliveries, its first delivery type delivered on the worker's thread. Work no executor
         * thread has started when the worker needs it runs on the worker's thread.
         */
        PARALLEL,
        /**
         * One group after the other, all on the worker's thread, for deliverers that need the
         * caller's thread context; a batch costs the sum of its groups, then its update.
         */
        SEQUENTIAL
    }

    /** The largest batch accepted, {@value}. */
    public static final int MAX_BATCH_SIZE = 10_000;

    /** The most workers accepted, {@value}. */
    public static final int MAX_CONCURRENCY = 64;

    /**
     * Batch 100, one worker, the default retry policy, a 5 s drain budget, parallel dispatch, a
     * full scan every second.
     */
    public static final ProcessorSettings DEFAULT = new ProcessorSettings(100, 1, RetryPolicy.DEFAULT,
            Duration.ofSeconds(5), TransportDispatch.PARALLEL, Duration.ofSeconds(1));

    public ProcessorSettings {
        if (batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
            throw new IllegalArgumentException("batchSize must be in [1, " + MAX_BATCH_SIZE + "], got: " + batchSize);
        }
        if (concurrency < 1 || concurrency > MAX_CONCURRENCY) {
            throw new IllegalArgumentException("concurrency must be in [1, " + MAX_CONCURRENCY + "], got: "
                    + concurrency);
        }
        Objects.requireNonNull(retryPolicy, "retryPolicy");
        Objects.requireNonNull(drainBudget, "drainBudget");
        if (drainBudget.isNegative() || drainBudget.isZero()) {
            throw new IllegalArgumentException("drainBudget must be > 0, got: " + drainBudget);
        }
        Objects.requireNonNull(dispatch, "dispatch");
        Objects.requireNonNull(fullScanInterval, "fullScanInterval");
        if (fullScanInterval.isNegative()) {
            throw new IllegalArgumentException("fullScanInterval must be >= 0, got: " + fullScanInterval);
        }
    }

    /** Returns a copy with the given batch size. */
    public ProcessorSettings withBatchSize(int size) {
        return new ProcessorSettings(size, concurrency, retryPolicy, drainBudget, dispatch, fullScanInterval);
    }

    /** Returns a copy with the given concurrency. */
    public ProcessorSettings withConcurrency(int workers) {
        return new ProcessorSettings(batchSize, workers, retryPolicy, drainBudget, dispatch, fullScanInterval);
    }

    /** Returns a copy with the given retry policy. */
    public ProcessorSettings withRetryPolicy(RetryPolicy policy) {
        return new ProcessorSettings(batchSize, concurrency, policy, drainBudget, dispatch, fullScanInterval);
    }

    /** Returns a copy with the given transport dispatch. */
    public ProcessorSettings withDispatch(TransportDispatch transportDispatch) {
        return new ProcessorSettings(batchSize, concurrency, retryPolicy, drainBudget, transportDispatch,
                fullScanInterval);
    }

    /** Returns a copy with the given full-scan interval. */
    public ProcessorSettings withFullScanInterval(Duration interval) {
        return new ProcessorSettings(batchSize, concurrency, retryPolicy, drainBudget, dispatch, interval);
    }
}
