package org.eeoutbox.engine;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.DoubleSupplier;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.RetryPolicy;
import org.eeoutbox.engine.internal.OutageLog;
import org.eeoutbox.spi.DeliveryTracing;
import org.eeoutbox.spi.HeadFailurePolicy;
import org.eeoutbox.spi.LeasedEntry;
import org.eeoutbox.spi.OutboxStore;
import org.eeoutbox.spi.TransactionRunner;

/**
 * Claims due entries, delivers them and records the outcomes.
 *
 * <p>In lock mode (the default) each batch runs in a new transaction of the
 * {@link TransactionRunner}: claim (the row lock is the claim), delivery and the update of every
 * outcome commit together (with parallel dispatch, a full batch's update is written while its
 * deliveries run: {@link ProcessorSettings.TransportDispatch#PARALLEL}). In lease mode
 * ({@link LeaseSettings}, per delivery type) the claim commits in a transaction of its own that
 * stamps a lease on each entry, the delivery runs with no transaction and no connection held, and
 * the outcomes are written in another transaction, fenced by each lease's token: an entry whose
 * lease expired and was claimed again keeps the newer holder's state, and is counted
 * ({@link OutboxListener#onLeasesLost}). When that last transaction fails (the database restarts),
 * it is tried again, with the outcomes kept in memory, until the leases would expire; only then
 * may their entries be delivered again. A worker keeps claiming while batches come back full or
 * release an ordering key, until the drain budget is spent. Only entries of the delivery types
 * this processor has deliverers for are claimed.
 *
 * <p>Thread-safe. {@link #drain()} never runs twice at once: a call made while a pass runs
 * returns at once and makes the running pass go round once more, so a wake-up is never lost.
 * With a concurrency above one, the extra workers run on the given {@link Executor}, started when
 * the first worker finds a backlog.
 *
 * <p>Logs, under this class's name: each entry that ends {@code FAILED} at {@code WARNING} (for an
 * entry with an ordering key, with what becomes of its key: blocked, or going on without it, as
 * the store's {@link OutboxStore#headFailurePolicy()} says), each retry at {@code DEBUG} (JUL
 * {@code FINE}), and failed batches through an {@link OutageLog} (the first with its trace, then a
 * summary every 30 s, then a line when batches commit again).
 */
public final class OutboxProcessor {

    private static final Logger LOG = System.getLogger(OutboxProcessor.class.getName());

    /** A worker's lease-mode batch in flight when there is none. */
    private static final Offloaded<List<BatchReport.Outcome>> NOTHING_IN_FLIGHT = Offloaded.done(List.of());
    /** The pauses between tries to write the outcomes of a lease-mode batch: doubling from the first to the most. */
    private static final Duration COMPLETION_RETRY_FIRST_PAUSE = Duration.ofMillis(100);
    private static final Duration COMPLETION_RETRY_MAX_PAUSE = Duration.ofSeconds(2);
    /**
     * Lock-mode deliveries that took less than this (a transport that does not wait, such as a
     * no-op) are not worth handing to the executor to overlap the batch's write: the next batch
     * is delivered on the worker's thread, then written. So is a short batch, the common case of
     * a wake-up, after which the worker stops: a hand-over costs a managed executor a capture of
     * the caller's context, more than a short batch's write takes.
     */
    private static final long OVERLAP_MIN_DELIVERY_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

    private final OutboxStore store;
    private final TransactionRunner transactions;
    private final Map<String, MessageDeliverer> deliverers;
    private final ProcessorSettings settings;
    private final LeaseSettings leases;
    private final DeliveryTracing tracing;
    private final Set<String> lockTypes;
    private final ClaimWindow lockWindow;
    private final ClaimWindow leaseWindow;
    private final OutboxListener listener;
    private final Executor executor;
    private final Clock clock;
    private final DoubleSupplier random;
    private final OutageLog batchFailures;
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean wakeRequested = new AtomicBoolean();
    private volatile boolean stopped;
    /**
     * How long the deliveries of the last lock-mode batch took, on any worker: whether the next
     * batch overlaps them with its write. At first, unknown: taken as long.
     */
    private volatile long lastLockDeliveryNanos = Long.MAX_VALUE;

    /**
     * Creates a processor.
     *
     * @param deliverers one per delivery type
     * @param executor   runs the workers beyond the first and, with
     *                   {@link ProcessorSettings.TransportDispatch#PARALLEL}, the deliveries of
     *                   lock-mode batches and the groups of all but one delivery type when a batch
     *                   holds several; inside a server, a managed executor
     * @throws IllegalArgumentException if there is no deliverer or two share a delivery type
     */
    public OutboxProcessor(OutboxStore store, TransactionRunner transactions, List<MessageDeliverer> deliverers,
                           ProcessorSettings settings, OutboxListener listener, Executor executor, Clock clock) {
        this(store, transactions, deliverers, settings, listener, executor, clock, LeaseSettings.NONE);
    }

    /**
     * Creates a processor that claims the delivery types of {@code leases} in lease mode.
     *
     * @throws IllegalArgumentException as the other constructor does, and if {@code leases} names a
     *                                  delivery type no deliverer has
     */
    public OutboxProcessor(OutboxStore store, TransactionRunner transactions, List<MessageDeliverer> deliverers,
                           ProcessorSettings settings, OutboxListener listener, Executor executor, Clock clock,
                           LeaseSettings leases) {
        this(store, transactions, deliverers, settings, listener, executor, clock, leases, DeliveryTracing.NONE);
    }

    /**
     * Creates a processor that claims the delivery types of {@code leases} in lease mode and opens a
     * span for each delivery attempt through {@code tracing} ({@link DeliveryTracing#NONE}: none).
     * A deliverer then gets each entry carrying its delivery span's context.
     *
     * @throws IllegalArgumentException as the other constructors do
     */
    public OutboxProcessor(OutboxStore store, TransactionRunner transactions, List<MessageDeliverer> deliverers,
                           ProcessorSettings settings, OutboxListener listener, Executor executor, Clock clock,
                           LeaseSettings leases, DeliveryTracing tracing) {
        this(store, transactions, deliverers, settings, listener, executor, clock, leases, tracing,
                () -> ThreadLocalRandom.current().nextDouble());
    }

    /** As the public constructor, with the source of the backoff jitter given, for tests. */
    OutboxProcessor(OutboxStore store, TransactionRunner transactions, List<MessageDeliverer> deliverers,
                    ProcessorSettings settings, OutboxListener listener, Executor executor, Clock clock,
                    DoubleSupplier random) {
        this(store, transactions, deliverers, settings, listener, executor, clock, LeaseSettings.NONE,
                DeliveryTracing.NONE, random);
    }

    /** As the public constructor, with the source of the backoff jitter given, for tests. */
    OutboxProcessor(OutboxStore store, TransactionRunner transactions, List<MessageDeliverer> deliverers,
                    ProcessorSettings settings, OutboxListener listener, Executor executor, Clock clock,
                    LeaseSettings leases, DeliveryTracing tracing, DoubleSupplier random) {
        this.tracing = Objects.requireNonNull(tracing, "tracing");
        this.store = Objects.requireNonNull(store, "store");
        this.transactions = Objects.requireNonNull(transactions, "transactions");
        this.deliverers = byType(deliverers);
        this.settings = Objects.requireNonNull(settings, "settings");
        this.leases = Objects.requireNonNull(leases, "leases");
        for (String type : leases.deliveryTypes()) {
            if (!this.deliverers.containsKey(type)) {
                throw new IllegalArgumentException("leases.deliveryTypes() names '" + type + "', for which there is "
                        + "no deliverer; the delivery types are " + this.deliverers.keySet());
            }
        }
        Set<String> lockOnly = new HashSet<>(this.deliverers.keySet());
        lockOnly.removeAll(leases.deliveryTypes());
        this.lockTypes = Set.copyOf(lockOnly);
        this.lockWindow = new ClaimWindow(settings.fullScanInterval());
        this.leaseWindow = new ClaimWindow(settings.fullScanInterval());
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
     * Makes a running drain go round once more, and runs none itself: cheap enough for a thread
     * that has just committed entries and must not deliver them. The pass that goes round starts
     * after this call, so it sees every entry committed before it.
     *
     * @return {@code true} if a drain was running: it will claim the new entries without another
     *         call; {@code false} if none was, and the caller must have {@link #drain()} called
     */
    public boolean wakeRunningDrain() {
        // Set before reading: a drain that ends meanwhile reads the request after clearing running.
        wakeRequested.set(true);
        return running.get();
    }

    /**
     * Stops processing: running workers finish the batch in hand and claim no more; later calls
     * to {@link #drain()} do nothing.
     */
    public void stop() {
        stopped = true;
    }

    /**
     * Runs one worker, and the others once it finds a backlog (it goes round for more): a wake-up
     * that finds a few entries costs one worker's claims, not every worker's.
     */
    private int runWorkers() {
        ExtraWorkers others = new ExtraWorkers();
        int processed = drainOneWorker(others::start);
        return processed + others.join();
    }

    /**
     * The workers beyond the first of one pass, on the executor. Confined to the first worker's
     * thread, which starts them at most once; those the executor refuses, or has not started by the
     * time the first worker is done (it found the backlog's end, or spent the drain budget), are
     * done without: the first worker never waits for a saturated executor.
     */
    private final class ExtraWorkers {
        private final List<Offloaded<Integer>> running = new ArrayList<>();
        private boolean started;

        void start() {
            if (started) {
                return;
            }
            started = true;
            for (int i = 1; i < settings.concurrency(); i++) {
                running.add(Offloaded.start(() -> drainOneWorker(() -> { }), executor));
            }
        }

        /** Waits for the workers an executor thread started; returns the entries they processed. */
        int join() {
            return running.stream().mapToInt(worker -> worker.joinIfStarted(0)).sum();
        }
    }

    /**
     * Claims batches while they come back full, or released an ordering key (its next entry may
     * be due now: without going round, a key's backlog would move one entry per poll), until the
     * drain budget is spent. A mode with no delivery type costs nothing: a processor without
     * leases runs exactly as before them.
     *
     * <p>Lease-mode batches are pipelined: each is delivered and completed on the executor while
     * this thread claims the next, which starts as soon as it is claimed; the worker then waits for
     * the older one. A batch after which the worker would stop (a short one, with no lock-mode
     * batch going round) is delivered on this thread instead. So at most two lease-mode batches per
     * worker are in flight; their claims and completions take turns ({@code leaseTransactions}), so
     * a worker holds at most one connection for them, and none while receivers answer. Before it
     * stops, a worker finishes the batch in flight and goes round again if that released an
     * ordering key.
     *
     * @param goingRound called each time the worker goes round for more
     */
    private int drainOneWorker(Runnable goingRound) {
        long deadline = System.nanoTime() + settings.drainBudget().toNanos();
        int processed = 0;
        Offloaded<List<BatchReport.Outcome>> delivering = NOTHING_IN_FLIGHT;
        Object leaseTransactions = new Object();
        boolean goOn;
        do {
            List<BatchReport.Outcome> locked = lockTypes.isEmpty() ? List.of() : processBatch();
            processed += locked.size();
            boolean lockedReleasedKey = releaseKeys(locked);
            goOn = locked.size() == settings.batchSize() || lockedReleasedKey;
            if (!leases.deliveryTypes().isEmpty()) {
                Optional<LeaseBatch> claimed = claimLeases(leaseTransactions);
                Offloaded<List<BatchReport.Outcome>> previous = delivering;
                boolean lockedGoesOn = goOn;
                delivering = claimed.filter(batch -> !batch.leased().isEmpty())
                        .map(batch -> deliverLeased(batch, leaseTransactions, lockedGoesOn))
                        .orElse(NOTHING_IN_FLIGHT);
                // deliverAndComplete never throws: failures become results and reports.
                List<BatchReport.Outcome> completed = previous.join();
                processed += completed.size();
                boolean completedReleasedKey = releaseKeys(completed);
                goOn |= claimed.map(batch -> batch.leased().size() == settings.batchSize()).orElse(false)
                        || completedReleasedKey;
                if (!goOn) {
                    // About to stop: finish the batch in flight, and go round if it released a key.
                    completed = delivering.join();
                    delivering = NOTHING_IN_FLIGHT;
                    processed += completed.size();
                    goOn = releaseKeys(completed);
                }
            }
            if (goOn) {
                goingRound.run();
            }
        } while (goOn && !stopped && System.nanoTime() - deadline < 0);
        return processed + delivering.join().size();
    }

    /**
     * Returns whether an entry with an ordering key left the claimable set, so that its successor
     * may be claimed; if so, moves the claim windows back to the earliest such entry's creation
     * ({@link ClaimWindow#rescanFrom}), since the successor may be due before where they start.
     * Call it for every batch's outcomes, never behind a condition that may skip it.
     */
    private boolean releaseKeys(List<BatchReport.Outcome> outcomes) {
        Optional<Instant> earliest = outcomes.stream().map(BatchReport.Outcome::entry).filter(this::releasesItsKey)
                .map(OutboxEntry::createdAt).min(Comparator.naturalOrder());
        earliest.ifPresent(released -> {
            lockWindow.rescanFrom(released);
            leaseWindow.rescanFrom(released);
        });
        return earliest.isPresent();
    }

    /** Whether {@code entry}, as its batch left it, no longer holds up its ordering key's next entry. */
    private boolean releasesItsKey(OutboxEntry entry) {
        return entry.orderingKey() != null && (entry.status() == OutboxStatus.DELIVERED
                || entry.status() == OutboxStatus.FAILED && store.headFailurePolicy() == HeadFailurePolicy.SKIP);
    }

    /** Runs one lock-mode batch in its own transaction; returns its outcomes, none if it failed. */
    private List<BatchReport.Outcome> processBatch() {
        long start = System.nanoTime();
        List<BatchReport.Outcome> outcomes;
        try {
            outcomes = transactions.inNewTransaction(this::claimDeliverUpdate);
        } catch (RuntimeException e) {
            batchFailed(e);
            return List.of();
        }
        batchFailures.succeeded();
        report(outcomes, start);
        return outcomes;
    }

    private List<BatchReport.Outcome> claimDeliverUpdate() {
        Instant now = clock.instant();
        List<OutboxEntry> claimed = lockWindow.claim(now,
                dueFrom -> store.claim(lockTypes, dueFrom, now, settings.batchSize()), entry -> entry);
        if (claimed.isEmpty()) {
            return List.of();
        }
        if (settings.dispatch() == ProcessorSettings.TransportDispatch.SEQUENTIAL
                || claimed.size() < settings.batchSize() || lastLockDeliveryNanos < OVERLAP_MIN_DELIVERY_NANOS) {
            List<BatchReport.Outcome> outcomes = decide(claimed, timedDeliver(claimed), clock.instant());
            store.update(entries(outcomes));
            return outcomes;
        }
        return deliverWhileWritingDelivered(claimed);
    }

    /** Delivers a lock-mode batch as {@link #deliver} does, and notes how long that took. */
    private List<DeliveryResult> timedDeliver(List<OutboxEntry> claimed) {
        long start = System.nanoTime();
        List<DeliveryResult> results = deliver(claimed);
        lastLockDeliveryNanos = System.nanoTime() - start;
        return results;
    }

    /**
     * Delivers a full lock-mode batch on the executor while this thread writes every entry of it as
     * delivered, then writes again the entries that were not: the update, the largest part of a
     * batch's own database work, overlaps the wait for the receivers' acknowledgements. Both writes
     * are in the batch's transaction, which commits only after every result came: no entry is seen
     * delivered before it was, and a crash rolls both back. The delivered entries' time is that of
     * the first write. When the deliveries are done before that write would start (or the executor
     * ran them at once), the outcomes are written once, as {@code SEQUENTIAL} dispatch does.
     */
    private List<BatchReport.Outcome> deliverWhileWritingDelivered(List<OutboxEntry> claimed) {
        Offloaded<List<DeliveryResult>> delivering = Offloaded.start(() -> timedDeliver(claimed), executor);
        Instant written = clock.instant();
        boolean writtenDelivered = !delivering.isDone();
        if (writtenDelivered) {
            try {
                store.update(claimed.stream().map(entry -> entry.toDelivered(written)).toList());
            } catch (RuntimeException e) {
                // The rollback makes the entries claimable again: not while their deliveries still run.
                delivering.join();
                throw e;
            }
        }
        // deliver never throws: every failure is a result.
        List<BatchReport.Outcome> outcomes = decide(claimed, delivering.join(), written);
        store.update(writtenDelivered ? entries(outcomes).stream()
                .filter(entry -> entry.status() != OutboxStatus.DELIVERED).toList() : entries(outcomes));
        return outcomes;
    }

    private static List<OutboxEntry> entries(List<BatchReport.Outcome> outcomes) {
        return outcomes.stream().map(BatchReport.Outcome::entry).toList();
    }

    /** A lease-mode batch as claimed: its leases, and when they end on this JVM's monotonic clock. */
    private record LeaseBatch(List<LeasedEntry> leased, long start, long leasesEnd) {
    }

    /**
     * Claims a lease-mode batch in its own transaction, holding {@code turn} meanwhile; empty if
     * the claim failed.
     */
    private Optional<LeaseBatch> claimLeases(Object turn) {
        long start = System.nanoTime();
        try {
            List<LeasedEntry> leased;
            synchronized (turn) {
                Instant now = clock.instant();
                leased = transactions.inNewTransaction(() -> leaseWindow.claim(now, dueFrom -> store.lease(
                        leases.deliveryTypes(), dueFrom, now, settings.batchSize(), leases.owner(), leases.length()),
                        LeasedEntry::entry));
            }
            if (leased.isEmpty()) {
                batchFailures.succeeded();
            }
            // Measured from before the claim: the leases, which start later on the database's
            // clock, end after this.
            return Optional.of(new LeaseBatch(leased, start, start + leases.length().toNanos()));
        } catch (RuntimeException e) {
            batchFailed(e);
            return Optional.empty();
        }
    }

    /**
     * Starts {@link #deliverAndComplete} of a lease-mode batch: on the executor when the worker may
     * claim another meanwhile (the batch is full, or the lock-mode batch goes round), else on this
     * thread, which would only wait for it: a hand-over costs a managed executor a capture of the
     * caller's context, and a short batch is the common case of a wake-up. A batch the executor
     * refuses, or has not started when the worker needs its outcomes, runs on the worker's thread
     * ({@link Offloaded}).
     */
    private Offloaded<List<BatchReport.Outcome>> deliverLeased(LeaseBatch batch, Object turn, boolean lockedGoesOn) {
        if (lockedGoesOn || batch.leased().size() == settings.batchSize()) {
            return Offloaded.start(() -> deliverAndComplete(batch, turn), executor);
        }
        return Offloaded.done(deliverAndComplete(batch, turn));
    }

    /**
     * Delivers a lease-mode batch with no transaction open and completes it in another (holding
     * {@code turn} meanwhile), tried again until the leases would expire. Returns the batch's
     * outcomes, none if they could not be written. Never throws.
     */
    private List<BatchReport.Outcome> deliverAndComplete(LeaseBatch batch, Object turn) {
        List<LeasedEntry> leased = batch.leased();
        List<OutboxEntry> claimed = leased.stream().map(LeasedEntry::entry).toList();
        List<BatchReport.Outcome> outcomes = deliverWithinBudget(claimed);
        List<LeasedEntry> completed = new ArrayList<>(leased.size());
        for (int i = 0; i < leased.size(); i++) {
            completed.add(leased.get(i).with(outcomes.get(i).entry()));
        }
        Optional<Set<UUID>> lost = complete(completed, batch.leasesEnd(), turn);
        if (lost.isEmpty()) {
            return List.of();
        }
        batchFailures.succeeded();
        if (!lost.get().isEmpty()) {
            int count = lost.get().size();
            LOG.log(Level.WARNING, "{0} outbox leases expired before their outcome was written; the entries were "
                    + "claimed again and keep the newer outcome (raise the lease length if this repeats)", count);
            notifyListener(() -> listener.onLeasesLost(count));
        }
        report(outcomes.stream().filter(outcome -> !lost.get().contains(outcome.entry().id())).toList(),
                batch.start());
        return outcomes;
    }

    /**
     * Delivers the entries whose retry budget is not spent and decides their outcomes; fails the
     * others without an attempt. An entry claimed with its budget spent had leases that ended
     * without an outcome (its delivery killed or stalled the instance each time): delivering it
     * again would exceed the budget that lock mode keeps. Outcomes in claim order.
     */
    private List<BatchReport.Outcome> deliverWithinBudget(List<OutboxEntry> claimed) {
        RetryPolicy policy = settings.retryPolicy();
        List<OutboxEntry> deliverable = claimed.stream()
                .filter(entry -> !policy.isExhausted(entry.attempts()))
                .toList();
        List<BatchReport.Outcome> decided = deliverable.isEmpty() ? List.of()
                : decide(deliverable, deliver(deliverable), clock.instant());
        if (deliverable.size() == claimed.size()) {
            return decided;
        }
        Instant now = clock.instant();
        List<BatchReport.Outcome> outcomes = new ArrayList<>(claimed.size());
        int next = 0;
        for (OutboxEntry entry : claimed) {
            outcomes.add(policy.isExhausted(entry.attempts()) ? spentBudget(entry, now) : decided.get(next++));
        }
        return outcomes;
    }

    /** The outcome of an entry whose every allowed attempt was made: FAILED, with its attempts as they are. */
    private static BatchReport.Outcome spentBudget(OutboxEntry entry, Instant now) {
        String reason = "retries exhausted after " + entry.attempts() + " attempts; the last ended without an outcome "
                + "(its lease expired: the instance stopped or stalled while delivering it)";
        OutboxEntry failed = new OutboxEntry(entry.id(), entry.messageType(), entry.payload(), entry.deliveryType(),
                entry.deliveryMetadata(), entry.deduplicationKey(), entry.orderingKey(), entry.orderingSeq(),
                OutboxStatus.FAILED, entry.attempts(), entry.nextAttemptAt(), entry.createdAt(), now, reason, null, now,
                entry.traceContext());
        return new BatchReport.Outcome(failed, DeliveryResult.permanent(reason));
    }

    /**
     * Writes the outcomes of a lease-mode batch, trying again while the leases last; each try
     * holds {@code turn}, none while it waits.
     *
     * @return the ids whose lease was lost; empty when the outcomes could not be written
     */
    private Optional<Set<UUID>> complete(List<LeasedEntry> completed, long leasesEnd, Object turn) {
        long pause = COMPLETION_RETRY_FIRST_PAUSE.toNanos();
        while (true) {
            try {
                synchronized (turn) {
                    return Optional.of(transactions.inNewTransaction(() -> store.completeLeased(completed)));
                }
            } catch (RuntimeException e) {
                batchFailures.failed(e);
                if (stopped || leasesEnd - System.nanoTime() <= pause || !sleep(pause)) {
                    LOG.log(Level.WARNING, "Gave up writing the outcomes of {0} leased outbox entries; they will be "
                            + "delivered again once their leases expire", completed.size());
                    notifyListener(() -> listener.onBatchFailed(e));
                    return Optional.empty();
                }
                pause = Math.min(pause * 2, COMPLETION_RETRY_MAX_PAUSE.toNanos());
            }
        }
    }

    private static boolean sleep(long nanos) {
        try {
            Thread.sleep(Duration.ofNanos(nanos).toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void batchFailed(RuntimeException e) {
        batchFailures.failed(e);
        notifyListener(() -> listener.onBatchFailed(e));
    }

    /** Logs and reports the outcomes of a batch written (committed) since {@code start}. */
    private void report(List<BatchReport.Outcome> outcomes, long start) {
        if (!outcomes.isEmpty()) {
            logOutcomes(outcomes);
            BatchReport report = new BatchReport(outcomes, Duration.ofNanos(System.nanoTime() - start));
            notifyListener(() -> listener.onBatchCommitted(report));
        }
    }

    /** Decides each claimed entry's next state from its delivery result at {@code now}, in claim order. */
    private List<BatchReport.Outcome> decide(List<OutboxEntry> claimed, List<DeliveryResult> results, Instant now) {
        List<BatchReport.Outcome> outcomes = new ArrayList<>(claimed.size());
        int postponed = 0;
        String postponedReason = null;
        for (int i = 0; i < claimed.size(); i++) {
            DeliveryResult result = results.get(i);
            outcomes.add(new BatchReport.Outcome(transition(claimed.get(i), result, now), result));
            if (result instanceof DeliveryResult.Postponed postponement) {
                postponed++;
                postponedReason = postponement.reason();
            }
        }
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
            List<Offloaded<Void>> others = new ArrayList<>(groups.size() - 1);
            for (Runnable group : groups.subList(1, groups.size())) {
                others.add(Offloaded.start(() -> {
                    group.run();
                    return null;
                }, executor));
            }
            groups.get(0).run();
            // deliverGroup never throws (deliverBatch turns every failure into results).
            others.forEach(Offloaded::join);
        }
        return List.of(results);
    }

    /** Delivers the entries at {@code positions} of {@code claimed}; puts the results at the same positions. */
    private void deliverGroup(MessageDeliverer deliverer, List<Integer> positions, List<OutboxEntry> claimed,
                              DeliveryResult[] results) {
        List<OutboxEntry> batch = new ArrayList<>(positions.size());
        positions.forEach(position -> batch.add(claimed.get(position)));
        // The deliverer gets the entries with their delivery spans' context; the outcomes apply to the claimed ones.
        List<DeliveryResult> typeResults = TracedDelivery.deliver(tracing, batch,
                traced -> deliverBatch(deliverer, traced));
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
