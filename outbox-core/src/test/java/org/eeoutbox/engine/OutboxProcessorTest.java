package org.eeoutbox.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Level;
import org.eeoutbox.DeliveryInfo;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.engine.internal.CapturedLog;
import org.eeoutbox.spi.TransactionRunner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The processor's decisions, on a fake store; the SQL side is proven against real databases. */
class OutboxProcessorTest {

    private static final Instant NOW = Instant.parse("2026-12-02T12:00:00Z");
    private static final TransactionRunner DIRECT = new TransactionRunner() {
        @Override
        public <T> T inNewTransaction(Supplier<T> work) {
            return work.get();
        }
    };

    private final InMemoryStore store = new InMemoryStore();
    private final List<Runnable> cleanUps = new ArrayList<>();

    @Test
    void aDelivererThatThrowsTurnsItsBatchIntoRetries() {
        UUID id = add("http");
        OutboxProcessor processor = processor(deliverer("http", entry -> {
            throw new IllegalStateException("bug in transport");
        }), new OutboxListener() { });

        processor.drain();

        OutboxEntry entry = store.rows.get(id);
        assertEquals(OutboxStatus.PENDING, entry.status());
        assertEquals(1, entry.attempts());
        assertTrue(entry.lastError().contains("bug in transport"), entry.lastError());
    }

    @Test
    void aDelivererReturningTheWrongNumberOfResultsTurnsItsBatchIntoRetries() {
        UUID first = add("http");
        UUID second = add("http");
        MessageDeliverer shortChanging = batchDeliverer(entries -> List.of(DeliveryResult.delivered()));

        processor(shortChanging, new OutboxListener() { }).drain();

        assertEquals(OutboxStatus.PENDING, store.rows.get(first).status());
        assertEquals(OutboxStatus.PENDING, store.rows.get(second).status());
        assertTrue(store.rows.get(first).lastError().contains("returned 1 results"), store.rows.get(first).lastError());
    }

    @Test
    void immutableResultListsAreAccepted() {
        UUID first = add("http");
        UUID second = add("http");
        MessageDeliverer immutable =
                batchDeliverer(entries -> List.of(DeliveryResult.delivered(), DeliveryResult.permanent("HTTP 404")));

        processor(immutable, new OutboxListener() { }).drain();

        assertEquals(OutboxStatus.DELIVERED, store.rows.get(first).status());
        assertEquals(OutboxStatus.FAILED, store.rows.get(second).status());
    }

    @Test
    void aThrowingListenerDoesNotStopProcessing() {
        for (int i = 0; i < 250; i++) {
            add("http");
        }
        AtomicInteger calls = new AtomicInteger();
        OutboxListener throwing = new OutboxListener() {
            @Override
            public void onBatchCommitted(BatchReport report) {
                calls.incrementAndGet();
                throw new IllegalStateException("listener bug");
            }
        };

        int processed = processor(deliverer("http", entry -> DeliveryResult.delivered()), throwing).drain();

        assertEquals(250, processed);
        assertEquals(3, calls.get(), "batches of 100, 100 and 50");
    }

    @Test
    void entriesOfTypesWithoutADelivererAreNeverClaimed() {
        UUID smtp = add("smtp");
        processor(deliverer("http", entry -> DeliveryResult.delivered()), new OutboxListener() { }).drain();
        assertEquals(0, store.rows.get(smtp).attempts());
    }

    @Test
    void twoDeliverersForOneTypeAreRejected() {
        MessageDeliverer one = deliverer("http", entry -> DeliveryResult.delivered());
        MessageDeliverer two = deliverer("http", entry -> DeliveryResult.delivered());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new OutboxProcessor(store,
                DIRECT, List.of(one, two), ProcessorSettings.DEFAULT, new OutboxListener() { }, Runnable::run,
                Clock.systemUTC()));
        assertTrue(e.getMessage().contains("Two deliverers for delivery type 'http'"), e.getMessage());
    }

    @Test
    void aDrainCalledDuringAPassReturnsAtOnceAndMakesThePassGoRoundOnceMore() throws Exception {
        wakeDuringAPass(processor -> assertEquals(0, processor.drain(), "a drain while one runs returns at once"));
    }

    @Test
    void wakingARunningDrainMakesItGoRoundOnceMore() throws Exception {
        wakeDuringAPass(processor -> assertTrue(processor.wakeRunningDrain(), "a drain runs"));
    }

    @Test
    void wakingWhenNoDrainRunsSaysSoAndDeliversNothing() {
        add("http");
        List<String> delivered = new ArrayList<>();
        OutboxProcessor processor = processor(deliverer("http", entry -> {
            delivered.add(entry.payload());
            return DeliveryResult.delivered();
        }), new OutboxListener() { });

        assertFalse(processor.wakeRunningDrain());
        assertEquals(List.of(), delivered);
        assertEquals(1, processor.drain());
    }

    @Test
    void theExtraWorkersStartOnlyWhenTheFirstFindsABacklog() {
        List<Runnable> handedOver = new ArrayList<>();
        // Sequential dispatch: the deliveries stay on the workers' threads, every hand-over is a worker.
        OutboxProcessor processor = new OutboxProcessor(store, DIRECT, List.of(deliverer("http",
                entry -> DeliveryResult.delivered())), ProcessorSettings.DEFAULT.withConcurrency(4).withBatchSize(2)
                .withDispatch(ProcessorSettings.TransportDispatch.SEQUENTIAL),
                new OutboxListener() { }, task -> {
                    handedOver.add(task);
                    task.run();
                }, Clock.fixed(NOW, ZoneOffset.UTC), () -> 0.0);
        add("http");

        assertEquals(1, processor.drain());
        assertEquals(0, handedOver.size(), "a short first batch: no extra worker");

        for (int i = 0; i < 9; i++) {
            add("http");
        }
        assertEquals(9, processor.drain());
        assertEquals(3, handedOver.size(), "a full first batch: the three extra workers, once");
    }

    @Test
    void workersTheExecutorRefusesAreDoneWithout() {
        for (int i = 0; i < 10; i++) {
            add("http");
        }
        OutboxProcessor processor = new OutboxProcessor(store, DIRECT, List.of(deliverer("http",
                entry -> DeliveryResult.delivered())), ProcessorSettings.DEFAULT.withConcurrency(4).withBatchSize(2),
                new OutboxListener() { }, task -> {
                    throw new RejectedExecutionException("saturated");
                }, Clock.fixed(NOW, ZoneOffset.UTC), () -> 0.0);

        assertEquals(10, processor.drain(), "the first worker drained it all");
    }

    @Test
    void workersTheExecutorHasNotStartedWhenTheFirstIsDoneAreDoneWithout() {
        for (int i = 0; i < 10; i++) {
            add("http");
        }
        // A saturated executor: it queues the extra workers and runs them only after the pass.
        List<Runnable> queued = new ArrayList<>();
        OutboxProcessor processor = new OutboxProcessor(store, DIRECT, List.of(deliverer("http",
                entry -> DeliveryResult.delivered())), ProcessorSettings.DEFAULT.withConcurrency(4).withBatchSize(2)
                .withDispatch(ProcessorSettings.TransportDispatch.SEQUENTIAL),
                new OutboxListener() { }, queued::add, Clock.fixed(NOW, ZoneOffset.UTC), () -> 0.0);

        int drained = assertTimeoutPreemptively(Duration.ofSeconds(10), processor::drain,
                "the first worker waited for workers still queued");

        assertEquals(10, drained, "the first worker drained it all");
        assertEquals(3, queued.size());
        int claims = store.claimedFrom.size();
        queued.forEach(Runnable::run);
        assertEquals(claims, store.claimedFrom.size(), "a worker done without never claims");
    }

    /** Publishes a second entry while the first is being delivered, then {@code wake}s the processor. */
    private void wakeDuringAPass(Consumer<OutboxProcessor> wake) throws Exception {
        add("http");
        CountDownLatch firstBatchDelivering = new CountDownLatch(1);
        CountDownLatch secondPublished = new CountDownLatch(1);
        List<String> delivered = new ArrayList<>();
        OutboxProcessor processor = processor(deliverer("http", entry -> {
            delivered.add(entry.payload());
            if (delivered.size() == 1) {
                firstBatchDelivering.countDown();
                await(secondPublished);
            }
            return DeliveryResult.delivered();
        }), new OutboxListener() { });

        CompletableFuture<Integer> running = CompletableFuture.supplyAsync(processor::drain);
        assertTrue(firstBatchDelivering.await(10, TimeUnit.SECONDS));
        synchronized (store) {
            add("http");
        }
        wake.accept(processor);
        secondPublished.countDown();

        assertEquals(2, running.get(10, TimeUnit.SECONDS), "the running pass went round again for the wake-up");
        assertEquals(2, delivered.size());
    }

    @Test
    void aTransportThatHangsDoesNotHoldUpTheOtherTypesOfTheBatch() throws Exception {
        add("kafka");
        add("http");
        // Each deliverer waits for the other: delivered one after another, in either order, the
        // first waits in vain and the test fails.
        CountDownLatch kafkaHanging = new CountDownLatch(1);
        CountDownLatch httpDelivered = new CountDownLatch(1);
        MessageDeliverer kafka = deliverer("kafka", entry -> {
            kafkaHanging.countDown();
            await(httpDelivered);   // a producer blocking for max.block.ms while the broker is down
            return DeliveryResult.retriable("broker down");
        });
        MessageDeliverer http = deliverer("http", entry -> {
            await(kafkaHanging);
            httpDelivered.countDown();
            return DeliveryResult.delivered();
        });
        drainInParallel(kafka, http);
        assertEquals(List.of(OutboxStatus.PENDING, OutboxStatus.DELIVERED), store.rows.values().stream()
                .sorted(Comparator.comparing(OutboxEntry::deliveryType).reversed())
                .map(OutboxEntry::status).toList(), "kafka to retry, http delivered, in one committed batch");
    }

    @Test
    void aGroupThatThrowsBecomesRetriesForThatGroupOnly() {
        UUID kafkaEntry = add("kafka");
        UUID httpEntry = add("http");
        MessageDeliverer kafka = deliverer("kafka", entry -> {
            throw new IllegalStateException("bug in transport");
        });
        MessageDeliverer http = deliverer("http", entry -> DeliveryResult.delivered());
        drainInParallel(kafka, http);
        assertEquals(OutboxStatus.PENDING, store.rows.get(kafkaEntry).status());
        assertEquals(1, store.rows.get(kafkaEntry).attempts());
        assertTrue(store.rows.get(kafkaEntry).lastError().contains("bug in transport"));
        assertEquals(OutboxStatus.DELIVERED, store.rows.get(httpEntry).status());
    }

    @Test
    void aLockModeBatchIsWrittenDeliveredWhileItsDeliveriesRunThenItsFailuresAreWrittenAgain() {
        UUID delivered = add("http");
        UUID retried = add("http");
        CountDownLatch writtenDelivered = new CountDownLatch(1);
        store.beforeUpdate = entries -> writtenDelivered.countDown();
        // The receiver answers only once the batch was written: the write cannot wait for the answers.
        MessageDeliverer answeringAfterTheWrite = batchDeliverer(entries -> {
            await(writtenDelivered);
            return List.of(DeliveryResult.delivered(), DeliveryResult.retriable("HTTP 503"));
        });

        drainInParallel(answeringAfterTheWrite);

        assertEquals(2, store.updates.size());
        assertEquals(List.of(OutboxStatus.DELIVERED, OutboxStatus.DELIVERED),
                store.updates.get(0).stream().map(OutboxEntry::status).toList(), "the whole batch, while delivering");
        assertEquals(List.of(retried), store.updates.get(1).stream().map(OutboxEntry::id).toList(),
                "then only the entry that was not delivered");
        assertEquals(OutboxStatus.DELIVERED, store.rows.get(delivered).status());
        assertEquals(NOW, store.rows.get(delivered).deliveredAt());
        OutboxEntry retry = store.rows.get(retried);
        assertEquals(OutboxStatus.PENDING, retry.status());
        assertEquals(1, retry.attempts());
        assertEquals(null, retry.deliveredAt());
        assertEquals("HTTP 503", retry.lastError());
    }

    @Test
    void deliveriesDoneBeforeTheWriteAreWrittenOnce() {
        add("http");
        add("http");
        // The executor runs the deliveries as it is handed them, before the worker would write.
        processor(batchDeliverer(entries -> List.of(DeliveryResult.delivered(), DeliveryResult.permanent("HTTP 404"))),
                new OutboxListener() { }).drain();

        assertEquals(1, store.updates.size());
        assertEquals(List.of(OutboxStatus.DELIVERED, OutboxStatus.FAILED),
                store.updates.get(0).stream().map(OutboxEntry::status).toList());
    }

    @Test
    void aBatchWhoseWriteFailsRollsBackOnlyAfterItsDeliveriesEnded() {
        UUID id = add("http");
        CountDownLatch writeFailed = new CountDownLatch(1);
        store.beforeUpdate = entries -> {
            writeFailed.countDown();
            throw new IllegalStateException("database gone");
        };
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        MessageDeliverer slow = batchDeliverer(entries -> {
            await(writeFailed);
            sleep(Duration.ofMillis(100));
            events.add("delivered");
            return List.of(DeliveryResult.delivered());
        });
        List<RuntimeException> failures = new ArrayList<>();
        OutboxListener listener = new OutboxListener() {
            @Override
            public void onBatchFailed(RuntimeException error) {
                events.add("batch failed");
                failures.add(error);
            }
        };

        new OutboxProcessor(store, DIRECT, List.of(slow), ProcessorSettings.DEFAULT.withBatchSize(1), listener,
                cachedExecutor(), Clock.fixed(NOW, ZoneOffset.UTC), () -> 0.0).drain();

        assertEquals(List.of("delivered", "batch failed"), events,
                "no entry may be claimable again while its delivery still runs");
        assertEquals("database gone", failures.get(0).getMessage());
        assertEquals(OutboxStatus.PENDING, store.rows.get(id).status());
    }

    @Test
    void deliveriesThatDoNotWaitAreNotOverlappedWithTheWriteAfterTheFirstBatch() {
        assertEquals(List.of(2, 2, 2), writesOfThreeBatches(Duration.ofMillis(50), 1),
                "deliveries that wait for receivers: every full batch is written while they run, then corrected");
        // Unknown at first, taken as waiting. A descheduled worker may make one instant delivery
        // last over the threshold; not two.
        List<Integer> instant = writesOfThreeBatches(Duration.ZERO, 1);
        assertTrue(instant.subList(1, 3).contains(1), "instant deliveries: written once, after them " + instant);
    }

    @Test
    void aShortBatchIsWrittenOnceAfterItsDeliveries() {
        assertEquals(List.of(1, 1, 1), writesOfThreeBatches(Duration.ofMillis(50), 2),
                "a wake-up's short batch is not worth a hand-over");
    }

    /**
     * Drains three lock-mode batches of one entry whose deliveries take {@code delay}, claiming up to
     * {@code batchSize}; the writes of each.
     */
    private List<Integer> writesOfThreeBatches(Duration delay, int batchSize) {
        MessageDeliverer deliverer = deliverer("http", entry -> {
            sleep(delay);
            return DeliveryResult.delivered();
        });
        OutboxProcessor processor = new OutboxProcessor(store, DIRECT, List.of(deliverer),
                ProcessorSettings.DEFAULT.withBatchSize(batchSize), new OutboxListener() { }, cachedExecutor(),
                Clock.fixed(NOW, ZoneOffset.UTC), () -> 0.0);
        List<Integer> writes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            add("http");
            int before = store.updates.size();
            assertEquals(1, processor.drain());
            writes.add(store.updates.size() - before);
        }
        return writes;
    }

    @Test
    void deliveriesNoExecutorThreadStartedRunOnTheWorkersThread() {
        add("kafka");
        add("http");
        Thread worker = Thread.currentThread();
        List<String> deliveredOn = Collections.synchronizedList(new ArrayList<>());
        Function<OutboxEntry, DeliveryResult> recording = entry -> {
            deliveredOn.add(entry.deliveryType() + (Thread.currentThread() == worker ? "@worker" : "@other"));
            return DeliveryResult.delivered();
        };
        List<Runnable> queued = new ArrayList<>();

        // A saturated executor: it queues every task and runs none.
        int processed = new OutboxProcessor(store, DIRECT, List.of(deliverer("kafka", recording),
                deliverer("http", recording)), ProcessorSettings.DEFAULT.withBatchSize(2), new OutboxListener() { },
                queued::add, Clock.fixed(NOW, ZoneOffset.UTC), () -> 0.0).drain();

        assertEquals(2, processed);
        assertEquals(List.of("kafka@worker", "http@worker"), deliveredOn);
        assertEquals(List.of(OutboxStatus.DELIVERED, OutboxStatus.DELIVERED),
                store.rows.values().stream().map(OutboxEntry::status).toList());
        queued.forEach(Runnable::run);
        assertEquals(2, deliveredOn.size(), "a task run late finds its work done and does nothing");
    }

    @Test
    void sequentialDispatchDeliversEveryGroupOnTheWorkersThreadAndNeverUsesTheExecutor() {
        add("kafka");
        add("http");
        add("kafka");
        Thread worker = Thread.currentThread();
        List<String> deliveredOn = new ArrayList<>();
        Function<OutboxEntry, DeliveryResult> onThisThread = entry -> {
            deliveredOn.add(entry.deliveryType() + (Thread.currentThread() == worker ? "@worker" : "@other"));
            return DeliveryResult.delivered();
        };
        AtomicInteger executorUses = new AtomicInteger();
        ProcessorSettings sequential = ProcessorSettings.DEFAULT.withDispatch(ProcessorSettings.TransportDispatch.SEQUENTIAL);

        int delivered = new OutboxProcessor(store, DIRECT, List.of(deliverer("kafka", onThisThread),
                deliverer("http", onThisThread)), sequential, new OutboxListener() { }, task -> {
                    executorUses.incrementAndGet();
                    task.run();
                }, Clock.fixed(NOW, ZoneOffset.UTC), () -> 0.0).drain();

        assertEquals(3, delivered);
        assertEquals(List.of("kafka@worker", "kafka@worker", "http@worker"), deliveredOn, "groups in claim order");
        assertEquals(0, executorUses.get());
    }

    @Test
    void anEntryThatEndsFailedLogsOneWarningWithItsIdTypeDestinationAndReason() {
        UUID id = add("http");
        CapturedLog log = logOf(OutboxProcessor.class);

        processor(destinationDeliverer(entry -> "POST http://billing/hooks (service 'billing')"),
                new OutboxListener() { }).drain();

        List<String> warnings = log.messages(Level.WARNING);
        assertEquals(List.of("Outbox entry " + id + " FAILED at attempt 1 and will not be delivered (delivery type "
                + "http, destination POST http://billing/hooks (service 'billing'), message type t): HTTP 404"),
                warnings);
    }

    @Test
    void aFailedHeadLogsThatItsOrderingKeyIsBlocked() {
        UUID head = addKeyed("order-1");
        addKeyed("order-1");
        CapturedLog log = logOf(OutboxProcessor.class);

        processor(deliverer("http", entry -> DeliveryResult.permanent("HTTP 400")), new OutboxListener() { }).drain();

        List<String> warnings = log.messages(Level.WARNING);
        assertEquals(2, warnings.size(), warnings.toString());
        assertEquals("Outbox ordering key 'order-1' is blocked by its failed head " + head + " (sequence 1): its later "
                + "entries wait until an operator replays or discards it (OutboxAdmin.blockedKeys)", warnings.get(1));
    }

    @Test
    void aDrainGoesRoundWhileItsBatchesReleaseOrderingKeys() {
        List<UUID> key = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            key.add(addKeyed("order-1"));
        }
        List<UUID> delivered = new ArrayList<>();

        int processed = processor(deliverer("http", entry -> {
            delivered.add(entry.id());
            return DeliveryResult.delivered();
        }), new OutboxListener() { }).drain();

        assertEquals(5, processed, "one drain, although each batch held one entry of a batch size of 100");
        assertEquals(key, delivered);
    }

    @Test
    void aDelivererThatCannotNameTheDestinationLeavesTheDeliveryTypeInTheWarning() {
        UUID id = add("http");
        CapturedLog log = logOf(OutboxProcessor.class);

        processor(destinationDeliverer(entry -> {
            throw new IllegalArgumentException("unreadable metadata");
        }), new OutboxListener() { }).drain();

        assertEquals(List.of("Outbox entry " + id + " FAILED at attempt 1 and will not be delivered (delivery type "
                + "http, destination http, message type t): HTTP 404"), log.messages(Level.WARNING));
    }

    @Test
    void aRetryLogsAtFineOnly() {
        UUID id = add("http");
        CapturedLog log = logOf(OutboxProcessor.class);

        processor(deliverer("http", entry -> DeliveryResult.retriable("HTTP 503")), new OutboxListener() { }).drain();

        assertEquals(List.of(), log.messages(Level.INFO));
        List<String> fine = log.messages(Level.FINE);
        assertEquals(1, fine.size(), fine.toString());
        assertTrue(fine.get(0).startsWith("Outbox entry " + id + " (delivery type http) will be retried at ")
                && fine.get(0).endsWith("attempt 1 failed: HTTP 503"), fine.get(0));
    }

    @Test
    void anUnreachableStoreLogsOneTraceThenARecoveryLine() {
        AtomicInteger failing = new AtomicInteger(100);
        TransactionRunner unreachable = new TransactionRunner() {
            @Override
            public <T> T inNewTransaction(Supplier<T> work) {
                if (failing.getAndDecrement() > 0) {
                    throw new IllegalStateException("database unreachable");
                }
                return work.get();
            }
        };
        CapturedLog log = logOf(OutboxProcessor.class);
        OutboxProcessor processor = new OutboxProcessor(store, unreachable, List.of(deliverer("http",
                entry -> DeliveryResult.delivered())), ProcessorSettings.DEFAULT, new OutboxListener() { },
                Runnable::run, Clock.fixed(NOW, ZoneOffset.UTC), () -> 0.0);

        for (int poll = 0; poll < 101; poll++) {
            processor.drain();
        }

        List<String> lines = log.messages(Level.INFO);
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("Outbox batch processing failed (rolled back, its entries stay pending): "
                + "java.lang.IllegalStateException: database unreachable"), lines.get(0));
        assertEquals(1, log.traces());
        assertEquals("Outbox batch processing works again after 0 s and 100 failed attempts", lines.get(1));
    }

    @Test
    void claimsAfterTheFirstStartAnIntervalBeforeTheOldestEntryFound() {
        add("http");
        OutboxProcessor processor = deliveringWithHourlyFullScans(ProcessorSettings.DEFAULT);
        processor.drain();
        // Written two hours ago by a transaction that commits only now: the next full scan's.
        UUID late = store.insert(OutboxEntry.create(UUID.randomUUID(), new OutboxMessage("t", "late"),
                delivery("http"), NOW.minus(Duration.ofHours(2))));

        processor.drain();

        assertEquals(List.of(Optional.empty(), Optional.of(NOW.minus(Duration.ofHours(1)))), store.claimedFrom);
        assertEquals(OutboxStatus.PENDING, store.rows.get(late).status());
    }

    @Test
    void anOrderingKeysReleaseStartsTheNextClaimAnIntervalBeforeTheReleasedEntrysCreation() {
        // Created three hours ago and retried: due now, when the claims' window opens an hour before.
        UUID head = addKeyedRetriedDueNow("order-1", NOW.minus(Duration.ofHours(3)));
        // Published after the head took the key, while the head was retried: due before the window.
        UUID successor = addKeyedDueTwoHoursAgo("order-1");
        OutboxProcessor processor = deliveringWithHourlyFullScans(ProcessorSettings.DEFAULT);

        processor.drain();

        assertEquals(OutboxStatus.DELIVERED, store.rows.get(head).status());
        assertEquals(OutboxStatus.DELIVERED, store.rows.get(successor).status());
        assertEquals(List.of(Optional.empty(), Optional.of(NOW.minus(Duration.ofHours(4)))),
                store.claimedFrom.subList(0, 2));
    }

    @Test
    void anOrderingKeysReleaseInAFullBatchAlsoMovesTheNextClaimBack() {
        UUID head = addKeyedRetriedDueNow("order-1", NOW.minus(Duration.ofHours(3)));
        UUID successor = addKeyedDueTwoHoursAgo("order-1");
        // Batches of one: the batch that delivers the head is full, so the drain goes on anyway.
        OutboxProcessor processor = deliveringWithHourlyFullScans(ProcessorSettings.DEFAULT.withBatchSize(1));

        processor.drain();

        assertEquals(OutboxStatus.DELIVERED, store.rows.get(head).status());
        assertEquals(OutboxStatus.DELIVERED, store.rows.get(successor).status());
        assertEquals(Optional.of(NOW.minus(Duration.ofHours(4))), store.claimedFrom.get(1));
    }

    /** Catches what {@code type}'s System.Logger logs, at every level, until the test ends. */
    private CapturedLog logOf(Class<?> type) {
        CapturedLog captured = CapturedLog.of(type.getName());
        cleanUps.add(captured::close);
        return captured;
    }

    @AfterEach
    void cleanUp() {
        cleanUps.forEach(Runnable::run);
    }

    private OutboxProcessor processor(MessageDeliverer deliverer, OutboxListener listener) {
        return new OutboxProcessor(store, DIRECT, List.of(deliverer), ProcessorSettings.DEFAULT, listener,
                Runnable::run, Clock.fixed(NOW, ZoneOffset.UTC), () -> 0.0);
    }

    /**
     * Drains once with the default (parallel) dispatch, on an executor of its own, in a batch as
     * large as the entries: a full one, whose deliveries overlap its write.
     */
    private void drainInParallel(MessageDeliverer... deliverers) {
        new OutboxProcessor(store, DIRECT, List.of(deliverers),
                ProcessorSettings.DEFAULT.withBatchSize(store.rows.size()), new OutboxListener() { }, cachedExecutor(),
                Clock.fixed(NOW, ZoneOffset.UTC), () -> 0.0).drain();
    }

    /** An executor of threads made as needed, shut down when the test ends. */
    private ExecutorService cachedExecutor() {
        ExecutorService executor = Executors.newCachedThreadPool();
        cleanUps.add(executor::shutdownNow);
        return executor;
    }

    /**
     * Adds an entry of {@code orderingKey} created at {@code created}, which a delivery attempt
     * left due now.
     */
    private UUID addKeyedRetriedDueNow(String orderingKey, Instant created) {
        OutboxMessage message = new OutboxMessage("t", "{}").withOrderingKey(orderingKey);
        return store.insert(OutboxEntry.create(UUID.randomUUID(), message, delivery("http"), created)
                .toRetry(created.plusSeconds(1), NOW, "503"));
    }

    /**
     * Adds the next entry of {@code orderingKey}, due two hours ago: before the window that the
     * claims of {@link #deliveringWithHourlyFullScans} open once they found an entry due now.
     */
    private UUID addKeyedDueTwoHoursAgo(String orderingKey) {
        OutboxMessage next = new OutboxMessage("t", "{}").withOrderingKey(orderingKey);
        return store.insert(OutboxEntry.create(UUID.randomUUID(), next, delivery("http"),
                NOW.minus(Duration.ofHours(2))));
    }

    /** A processor on {@link #store} at {@link #NOW} delivering every http entry, a full scan an hour. */
    private OutboxProcessor deliveringWithHourlyFullScans(ProcessorSettings settings) {
        return new OutboxProcessor(store, DIRECT, List.of(deliverer("http", entry -> DeliveryResult.delivered())),
                settings.withFullScanInterval(Duration.ofHours(1)), new OutboxListener() { }, Runnable::run,
                Clock.fixed(NOW, ZoneOffset.UTC), () -> 0.0);
    }

    private UUID addKeyed(String orderingKey) {
        OutboxMessage message = new OutboxMessage("t", "{}").withOrderingKey(orderingKey);
        return store.insert(OutboxEntry.create(UUID.randomUUID(), message, delivery("http"), NOW));
    }

    private UUID add(String deliveryType) {
        OutboxEntry entry = OutboxEntry.create(UUID.randomUUID(), new OutboxMessage("t", "p" + store.rows.size()),
                delivery(deliveryType), NOW);
        return store.insert(entry);
    }

    private static DeliveryInfo delivery(String deliveryType) {
        return new DeliveryInfo() {
            @Override
            public String deliveryType() {
                return deliveryType;
            }

            @Override
            public String metadataJson() {
                return "{}";
            }
        };
    }

    static MessageDeliverer deliverer(String type, Function<OutboxEntry, DeliveryResult> outcome) {
        return new MessageDeliverer() {
            @Override
            public String deliveryType() {
                return type;
            }

            @Override
            public DeliveryResult deliver(OutboxEntry entry) {
                return outcome.apply(entry);
            }
        };
    }

    /** An {@code http} deliverer that fails every entry for good with "HTTP 404" and names destinations by {@code destination}. */
    private static MessageDeliverer destinationDeliverer(Function<OutboxEntry, String> destination) {
        MessageDeliverer failing = deliverer("http", entry -> DeliveryResult.permanent("HTTP 404"));
        return new MessageDeliverer() {
            @Override
            public String deliveryType() {
                return failing.deliveryType();
            }

            @Override
            public DeliveryResult deliver(OutboxEntry entry) {
                return failing.deliver(entry);
            }

            @Override
            public String describeDestination(OutboxEntry entry) {
                return destination.apply(entry);
            }
        };
    }

    /** An {@code http} deliverer whose batches answer {@code results}. */
    static MessageDeliverer batchDeliverer(Function<List<OutboxEntry>, List<DeliveryResult>> results) {
        return new MessageDeliverer() {
            @Override
            public String deliveryType() {
                return "http";
            }

            @Override
            public DeliveryResult deliver(OutboxEntry entry) {
                throw new AssertionError("the processor delivers batches");
            }

            @Override
            public List<DeliveryResult> deliverBatch(List<OutboxEntry> entries) {
                return results.apply(entries);
            }
        };
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(10, TimeUnit.SECONDS), "not released within 10 s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
