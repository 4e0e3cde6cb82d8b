package org.eeoutbox.engine;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.DoubleSupplier;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.RetryPolicy;
import org.eeoutbox.engine.internal.OutageLog;
import org.eeoutbox.spi.HeadFailurePolicy;
import org.eeoutbox.spi.OutboxStore;
import org.eeoutbox.spi.TransactionRunner;

/**
 * Claims due entries, delivers them and records the outcomes.
 *
 * <p>Each batch runs in a new transaction of the {@link TransactionRunner}: claim (the row lock
 * is the claim), delivery and the update of every outcome commit together. A worker keeps
 * claiming while batches come back full or release an ordering key, until the drain budget is
 * spent. Only entries of the
 * delivery types this processor has deliverers for are claimed.
 *
 * <p>Thread-safe. {@link #drain()} never runs twice at once: a call made while a pass runs
 * returns at once and makes the running pass go round once more, so a wake-up is never lost.
 * With a concurrency above one, the extra workers run on the given {@link Executor}.
 *
 * <p>Logs, under this class's name: each entry that ends {@code FAILED} at {@code WARNING} (for an
 * entry with an ordering key, with what becomes of its key: blocked, or going on without it, as
 * the store's {@link OutboxStore#headFailurePolicy()} says), each retry at {@code DEBUG} (JUL
 * {@code FINE}), and failed batches through an {@link OutageLog} (the first with its trace, then a
 * summary every 30 s, then a line when batches commit again).
 */
public final class OutboxProcessor {

    private static final Logger LOG = System.getLogger(OutboxProcessor.class.getName());

    private final OutboxStore store;
    private final TransactionRunner transactions;
    private final Map<String, MessageDeliverer> deliverers;
    private final ProcessorSettings settings;
    private final OutboxListener listener;
    private final Executor executor;
    private final Clock clock;
    private final DoubleSupplier random;
    private final OutageLog batchFailures;
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean wakeRequested = new AtomicBoolean();
    private volatile boolean stopped;

    /**
     * Creates a processor.
     *
     * @param deliverers one per delivery type
     * @param executor   runs the workers beyond the first and, with
     *                   {@link ProcessorSettings.TransportDispatch#PARALLEL}, the groups of all but one
     *                   delivery type when a batch holds several; inside a server, a managed executor
     * @throws IllegalArgumentException if there is no deliverer or two share a delivery type
     */
    public OutboxProcessor(OutboxStore store, TransactionRunner transactions, List<MessageDeliverer> deliverers,
                           ProcessorSettings settings, OutboxListener listener, Executor executor, Clock clock) {
        this(store, transactions, deliverers, settings, listener, executor, clock,
                () -> ThreadLocalRandom.current().nextDouble());
    }

    /** As the public constructor, with the source of the backoff jitter given, for tests. */
    OutboxProcessor(OutboxStore store, TransactionRunner transactions, List<MessageDeliverer> deliverers,
                    ProcessorSettings settings, OutboxListener listener, Executor executor, Clock clock,
                    DoubleSupplier random) {
        this.store = Objects.requireNonNull(store, "store");
        this.transactions = Objects.requireNonNull(transactions, "transactions");
        this.deliverers = byType(deliverers);
        this.settings = Objects.requireNonNull(settings, "settings");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.random = random;
        this.batchFailures = new OutageLog(LOG, "Outbox batch processing", "rolled back, its entries stay pending",
                OutageLog.DEFAULT_INTERVAL, clock);
    }

    /** Returns the delivery types this processor claims. */
    public Set<String> deliveryTypes() {
        return deliverers.keySet();
    }

    /**
     * Drains due entries: each worker claims and delivers batches until one comes back short or
     * the drain budget is spent. Returns at once with 0 if a drain is already running (which then
     * goes round once more). Never throws for a failed batch: the failure goes to the listener
     * and the log, and its entries stay as they were.
     *
     * @return the number of entries processed (delivered, retried or failed)
     */
    public int drain() {
        int processed = 0;
        wakeRequested.set(true);
        do {
            if (!running.compareAndSet(false, true)) {
                return processed;
            }
            try {
                while (!stopped && wakeRequested.getAndSet(false)) {
                    processed += runWorkers();
                }
            } finally {
                running.set(false);
            }
        } while (!stopped && wakeRequested.get());
        return processed;
    }

    /**
     * Stops processing: running workers finish the batch in hand and claim no more; later calls
     * to {@link #drain()} do nothing.
     */
    public void stop() {
        stopped = true;
    }

    private int runWorkers() {
        int workers = settings.concurrency();
        if (workers == 1) {
            return drainOneWorker();
        }
        List<CompletableFuture<Integer>> others = new ArrayList<>(workers - 1);
        for (int i = 1; i < workers; i++) {
            others.add(CompletableFuture.supplyAsync(this::drainOneWorker, executor));
        }
        int processed = drainOneWorker();
        for (CompletableFuture<Integer> other : others) {
            processed += other.join();
        }
        return processed;
    }

    /**
     * Claims batches while they come back full, or released an ordering key (its next entry may
     * be due now: without going round, a key's backlog would move one entry per poll).
     */
    private int drainOneWorker() {
        long deadline = System.nanoTime() + settings.drainBudget().toNanos();
        int processed = 0;
        List<BatchReport.Outcome> outcomes;
        do {
            outcomes = processBatch();
            processed += outcomes.size();
        } while ((outcomes.size() == settings.batchSize() || releasesKey(outcomes)) && !stopped
                && System.nanoTime() - deadline < 0);
        return processed;
    }

    /** Whether an entry with an ordering key left the claimable set, so that its successor may be claimed. */
    private boolean releasesKey(List<BatchReport.Outcome> outcomes) {
        for (BatchReport.Outcome outcome : outcomes) {
            OutboxEntry entry = outcome.entry();
            if (entry.orderingKey() != null && (entry.status() == OutboxStatus.DELIVERED
                    || entry.status() == OutboxStatus.FAILED && store.headFailurePolicy() == HeadFailurePolicy.SKIP)) {
                return true;
            }
        }
        return false;
    }

    /** Runs one batch in its own transaction; returns its outcomes, none if it failed. */
    private List<BatchReport.Outcome> processBatch() {
        long start = System.nanoTime();
        List<BatchReport.Outcome> outcomes;
        try {
            outcomes = transactions.inNewTransaction(this::claimDeliverUpdate);
        } catch (RuntimeException e) {
            batchFailures.failed(e);
            notifyListener(() -> listener.onBatchFailed(e));
            return List.of();
        }
        batchFailures.succeeded();
        if (!outcomes.isEmpty()) {
            logOutcomes(outcomes);
            BatchReport report = new BatchReport(outcomes, Duration.ofNanos(System.nanoTime() - start));
            notifyListener(() -> listener.onBatchCommitted(report));
        }
        return outcomes;
    }

    private List<BatchReport.Outcome> claimDeliverUpdate() {
        List<OutboxEntry> claimed = store.claim(deliverers.keySet(), clock.instant(), settings.batchSize());
        if (claimed.isEmpty()) {
            return List.of();
        }
        List<DeliveryResult> results = deliver(claimed);
        Instant now = clock.instant();
        List<BatchReport.Outcome> outcomes = new ArrayList<>(claimed.size());
        List<OutboxEntry> updated = new ArrayList<>(claimed.size());
        int postponed = 0;
        String postponedReason = null;
        for (int i = 0; i < claimed.size(); i++) {
            DeliveryResult result = results.get(i);
            OutboxEntry next = transition(claimed.get(i), result, now);
            outcomes.add(new BatchReport.Outcome(next, result));
            updated.add(next);
            if (result instanceof DeliveryResult.Postponed postponement) {
                postponed++;
                postponedReason = postponement.reason();
            }
        }
        store.update(updated);
        if (postponed > 0) {
            LOG.log(Level.WARNING, "{0} outbox entries postponed, transport unavailable: {1}", postponed,
                    postponedReason);
        }
        return outcomes;
    }

    /**
     * Delivers each delivery type's entries as one group; results come back in claim order. With
     * several delivery types in the batch and {@link ProcessorSettings.TransportDispatch#PARALLEL}
     * dispatch, the groups run at once, all but the first on the executor, so a slow or unreachable
     * transport (a Kafka producer blocking for {@code max.block.ms}) does not hold up the deliveries
     * of another; with {@code SEQUENTIAL}, one after the other on this thread.
     */
    private List<DeliveryResult> deliver(List<OutboxEntry> claimed) {
        Map<String, List<Integer>> positionsByType = new LinkedHashMap<>();
        for (int i = 0; i < claimed.size(); i++) {
            positionsByType.computeIfAbsent(claimed.get(i).deliveryType(), type -> new ArrayList<>()).add(i);
        }
        DeliveryResult[] results = new DeliveryResult[claimed.size()];
        List<Runnable> groups = new ArrayList<>(positionsByType.size());
        positionsByType.forEach((type, positions) ->
                groups.add(() -> deliverGroup(deliverers.get(type), positions, claimed, results)));
        if (settings.dispatch() == ProcessorSettings.TransportDispatch.SEQUENTIAL) {
            groups.forEach(Runnable::run);
        } else {
            List<CompletableFuture<Void>> others = new ArrayList<>(groups.size() - 1);
            for (Runnable group : groups.subList(1, groups.size())) {
                others.add(CompletableFuture.runAsync(group, executor));
            }
            groups.get(0).run();
            // deliverGroup never throws (deliverBatch turns every failure into results).
            others.forEach(CompletableFuture::join);
        }
        return List.of(results);
    }

    /** Delivers the entries at {@code positions} of {@code claimed}; puts the results at the same positions. */
    private static void deliverGroup(MessageDeliverer deliverer, List<Integer> positions, List<OutboxEntry> claimed,
                                     DeliveryResult[] results) {
        List<OutboxEntry> batch = new ArrayList<>(positions.size());
        positions.forEach(position -> batch.add(claimed.get(position)));
        List<DeliveryResult> typeResults = deliverBatch(deliverer, batch);
        for (int i = 0; i < positions.size(); i++) {
            results[positions.get(i)] = typeResults.get(i);
        }
    }

    /** Calls the deliverer, turning a broken contract (a throw, a wrong count) into retries. */
    private static List<DeliveryResult> deliverBatch(MessageDeliverer deliverer, List<OutboxEntry> batch) {
        String type = deliverer.deliveryType();
        try {
            List<DeliveryResult> results = deliverer.deliverBatch(batch);
            if (isComplete(results, batch.size())) {
                return results;
            }
            String broken = "deliverer for type '" + type + "' returned "
                    + (results == null ? "null" : results.size() + " results, some maybe null,")
                    + " for " + batch.size() + " entries";
            LOG.log(Level.ERROR, "Broken MessageDeliverer contract, retrying the batch: {0}", broken);
            return Collections.nCopies(batch.size(), DeliveryResult.retriable(broken));
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "Broken MessageDeliverer contract: the deliverer for type '" + type
                    + "' threw; retrying the batch", e);
            return Collections.nCopies(batch.size(), DeliveryResult.retriable("deliverer for type '" + type
                    + "' threw " + e));
        }
    }

    /** Whether there is one non-null result per entry (immutable lists refuse {@code contains(null)}). */
    private static boolean isComplete(List<DeliveryResult> results, int expected) {
        if (results == null || results.size() != expected) {
            return false;
        }
        for (DeliveryResult result : results) {
            if (result == null) {
                return false;
            }
        }
        return true;
    }

    /** Logs, once the batch has committed, each entry that failed for good at WARNING and each retry at DEBUG. */
    private void logOutcomes(List<BatchReport.Outcome> outcomes) {
        for (BatchReport.Outcome outcome : outcomes) {
            OutboxEntry entry = outcome.entry();
            if (entry.status() == OutboxStatus.FAILED) {
                LOG.log(Level.WARNING, "Outbox entry {0} FAILED at attempt {1} and will not be delivered (delivery "
                        + "type {2}, destination {3}, message type {4}): {5}", entry.id(), entry.attempts(),
                        entry.deliveryType(), destination(entry), entry.messageType(), entry.lastError());
                if (entry.orderingKey() != null) {
                    logFailedHead(entry);
                }
            } else if (outcome.result() instanceof DeliveryResult.RetriableFailure && LOG.isLoggable(Level.DEBUG)) {
                LOG.log(Level.DEBUG, "Outbox entry {0} (delivery type {1}) will be retried at {2}, attempt {3} "
                        + "failed: {4}", entry.id(), entry.deliveryType(), entry.nextAttemptAt(), entry.attempts(),
                        entry.lastError());
            }
        }
    }

    /** Says what became of the ordering key of an entry that just failed: it was its key's head. */
    private void logFailedHead(OutboxEntry entry) {
        if (store.headFailurePolicy() == HeadFailurePolicy.BLOCK) {
            LOG.log(Level.WARNING, "Outbox ordering key ''{0}'' is blocked by its failed head {1} (sequence {2}): its "
                    + "later entries wait until an operator replays or discards it (OutboxAdmin.blockedKeys)",
                    entry.orderingKey(), entry.id(), entry.orderingSeq());
        } else {
            LOG.log(Level.WARNING, "Outbox ordering key ''{0}'' goes on without its failed entry {1} (sequence {2}), "
                    + "outbox.ordering.on-head-failure=skip", entry.orderingKey(), entry.id(), entry.orderingSeq());
        }
    }

    /** The one place that decides an entry's next state from its delivery result. */
    private OutboxEntry transition(OutboxEntry entry, DeliveryResult result, Instant now) {
        if (result instanceof DeliveryResult.Delivered) {
            return entry.toDelivered(now);
        }
        if (result instanceof DeliveryResult.PermanentFailure failure) {
            return entry.toFailed(now, failure.reason());
        }
        if (result instanceof DeliveryResult.Postponed postponed) {
            return entry.toPostponed(now, postponed.notBefore(), postponed.reason());
        }
        DeliveryResult.RetriableFailure failure = (DeliveryResult.RetriableFailure) result;
        RetryPolicy policy = settings.retryPolicy();
        int attempts = entry.attempts() + 1;
        if (policy.isExhausted(attempts)) {
            return entry.toFailed(now, "retries exhausted after " + attempts + " attempts: " + failure.reason());
        }
        Instant due = now.plus(policy.backoff(attempts, random.getAsDouble()));
        if (failure.notBefore() != null && failure.notBefore().isAfter(due)) {
            due = failure.notBefore();
        }
        return entry.toRetry(now, due, failure.reason());
    }

    private static void notifyListener(Runnable callback) {
        try {
            callback.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Outbox listener threw; processing goes on", e);
        }
    }

    /** The deliverer's {@link MessageDeliverer#describeDestination}, or the delivery type if it throws. */
    private String destination(OutboxEntry entry) {
        MessageDeliverer deliverer = deliverers.get(entry.deliveryType());
        try {
            return deliverer.describeDestination(entry);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "The deliverer for type ''{0}'' cannot name the destination of entry {1}: {2}",
                    entry.deliveryType(), entry.id(), e.toString());
            return entry.deliveryType();
        }
    }

    private static Map<String, MessageDeliverer> byType(List<MessageDeliverer> deliverers) {
        if (deliverers == null || deliverers.isEmpty()) {
            throw new IllegalArgumentException("deliverers must hold at least one MessageDeliverer");
        }
        Map<String, MessageDeliverer> byType = new LinkedHashMap<>();
        for (MessageDeliverer deliverer : deliverers) {
            MessageDeliverer previous = byType.putIfAbsent(deliverer.deliveryType(), deliverer);
            if (previous != null) {
                throw new IllegalArgumentException("Two deliverers for delivery type '" + deliverer.deliveryType()
                        + "': " + previous.getClass().getName() + " and " + deliverer.getClass().getName());
            }
        }
        return Map.copyOf(byType);
    }
}
