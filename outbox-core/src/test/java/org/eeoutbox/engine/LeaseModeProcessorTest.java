package org.eeoutbox.engine;

import static org.eeoutbox.engine.OutboxProcessorTest.batchDeliverer;
import static org.eeoutbox.engine.OutboxProcessorTest.deliverer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;
import java.util.function.Supplier;
import org.eeoutbox.DeliveryInfo;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.RetryPolicy;
import org.eeoutbox.spi.DeliveryTracing;
import org.eeoutbox.spi.OutboxStoreException;
import org.eeoutbox.spi.TransactionRunner;
import org.junit.jupiter.api.Test;

/** The processor in lease mode (issue 16), on a fake store; the SQL side is proven against real databases. */
class LeaseModeProcessorTest {

    private static final Instant NOW = Instant.parse("2026-12-04T12:00:00Z");
    private static final RetryPolicy TWO_RETRIES = new RetryPolicy(2, Duration.ZERO, 1.0, Duration.ZERO, 0.0);

    private final InMemoryStore store = new InMemoryStore();
    private final Transactions transactions = new Transactions();
    private final Recorder listener = new Recorder();

    @Test
    void leaseModeDeliversWithNoTransactionOpenAndLockModeInsideOne() {
        UUID http = add("http");
        UUID kafka = add("kafka");
        List<String> seen = new ArrayList<>();
        MessageDeliverer httpDeliverer = deliverer("http", entry -> {
            seen.add("http in transaction: " + transactions.open);
            return DeliveryResult.delivered();
        });
        MessageDeliverer kafkaDeliverer = deliverer("kafka", entry -> {
            seen.add("kafka in transaction: " + transactions.open);
            return DeliveryResult.delivered();
        });

        new OutboxProcessor(store, transactions, List.of(httpDeliverer, kafkaDeliverer), ProcessorSettings.DEFAULT,
                listener, Runnable::run, Clock.fixed(NOW, ZoneOffset.UTC), leases(Duration.ofMinutes(1)), DeliveryTracing.NONE,
                () -> 0.0).drain();

        assertEquals(List.of("kafka in transaction: true", "http in transaction: false"), seen);
        assertEquals(OutboxStatus.DELIVERED, store.rows.get(http).status());
        assertEquals(OutboxStatus.DELIVERED, store.rows.get(kafka).status());
        assertEquals(1, store.rows.get(http).attempts());
        assertEquals(Set.of(), store.leased);
    }

    @Test
    void aCompletionThatFailsIsRetriedFromMemorySoTheEntryIsNotDeliveredAgain() {
        UUID id = add("http");
        AtomicInteger deliveries = new AtomicInteger();
        // Transaction 1 is the claim; 2 and 3 (the first completions) meet a database restarting.
        transactions.failing = call -> call == 2 || call == 3;

        processor(deliverer("http", entry -> {
            deliveries.incrementAndGet();
            return DeliveryResult.delivered();
        }), Duration.ofMinutes(1)).drain();

        assertEquals(1, deliveries.get());
        assertEquals(OutboxStatus.DELIVERED, store.rows.get(id).status());
        assertEquals(4, transactions.calls.get(), "claim, two failed completions, one that committed");
        assertEquals(List.of(1), listener.committedSizes);
        assertEquals(0, listener.failures.get(), "a completion that finally commits is no failed batch");
    }

    @Test
    void aCompletionIsNotRetriedPastTheLeaseAndTheBatchIsReportedFailed() {
        UUID id = add("http");
        transactions.failing = call -> call > 1;
        long start = System.nanoTime();

        processor(deliverer("http", entry -> DeliveryResult.delivered()), Duration.ofMillis(500)).drain();

        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(took.compareTo(Duration.ofMillis(300)) >= 0 && took.compareTo(Duration.ofSeconds(3)) < 0,
                "tried for about the lease's length, took " + took);
        assertTrue(transactions.calls.get() >= 3, "the completion was tried more than once");
        assertEquals(1, listener.failures.get());
        assertEquals(List.of(), listener.committedSizes);
        assertEquals(OutboxStatus.PENDING, store.rows.get(id).status());
        assertTrue(store.leased.contains(id), "left to expire, then to be claimed again");
    }

    @Test
    void aLeaseLostDuringDeliveryIsCountedAndTheNewerHolderKeepsTheEntry() {
        UUID id = add("http");
        MessageDeliverer slow = deliverer("http", entry -> {
            // The lease expires while the receiver is slow, and another instance claims the entry.
            store.expireLeases();
            store.lease(Set.of("http"), NOW, 10, "other", Duration.ofMinutes(1));
            return DeliveryResult.delivered();
        });

        processor(slow, Duration.ofMinutes(1)).drain();

        assertEquals(1, listener.leasesLost.get());
        assertEquals(List.of(), listener.committedSizes, "the lost entry is not reported as written");
        OutboxEntry entry = store.rows.get(id);
        assertEquals(OutboxStatus.PENDING, entry.status(), "never overwritten");
        assertEquals(2, entry.attempts(), "both claims counted their attempt");
        assertEquals(2L, store.tokens.get(id));
    }

    @Test
    void theRetryBudgetIsTheSameInBothModes() {
        UUID locked = add("http");
        drainUntilIdle(new OutboxProcessor(store, transactions, List.of(deliverer("http",
                entry -> DeliveryResult.retriable("HTTP 503"))), ProcessorSettings.DEFAULT.withRetryPolicy(TWO_RETRIES),
                listener, Runnable::run, Clock.fixed(NOW, ZoneOffset.UTC), () -> 0.0));
        UUID leased = add("http");
        drainUntilIdle(processor(deliverer("http", entry -> DeliveryResult.retriable("HTTP 503")), Duration.ofMinutes(1)));

        assertEquals(OutboxStatus.FAILED, store.rows.get(locked).status());
        assertEquals(OutboxStatus.FAILED, store.rows.get(leased).status());
        assertEquals(3, store.rows.get(locked).attempts());
        assertEquals(3, store.rows.get(leased).attempts());
    }

    @Test
    void anEntryWhoseLeasesAllEndedWithoutAnOutcomeFailsWithoutAFurtherAttempt() {
        UUID id = add("http");
        for (int crash = 0; crash < 3; crash++) {
            // Each delivery kills the instance: the claim counted the attempt, no outcome was written.
            store.lease(Set.of("http"), NOW, 10, "killed", Duration.ofMinutes(1));
            store.expireLeases();
        }
        AtomicInteger deliveries = new AtomicInteger();

        processor(deliverer("http", entry -> {
            deliveries.incrementAndGet();
            return DeliveryResult.delivered();
        }), Duration.ofMinutes(1)).drain();

        assertEquals(0, deliveries.get());
        OutboxEntry entry = store.rows.get(id);
        assertEquals(OutboxStatus.FAILED, entry.status());
        assertEquals(3, entry.attempts(), "the budget of two retries, not one more");
        assertTrue(entry.lastError().contains("retries exhausted after 3 attempts"), entry.lastError());
    }

    @Test
    void aWorkerDeliversItsNextLeasedBatchWhileThePreviousOneIsInFlight() throws Exception {
        for (int i = 0; i < 4; i++) {
            add("http");
        }
        CountDownLatch secondBatchStarted = new CountDownLatch(1);
        AtomicInteger batches = new AtomicInteger();
        List<Boolean> firstSawTheSecond = new CopyOnWriteArrayList<>();
        MessageDeliverer slowFirst = batchDeliverer(entries -> {
            if (batches.incrementAndGet() == 1) {
                firstSawTheSecond.add(await(secondBatchStarted));
            } else {
                secondBatchStarted.countDown();
            }
            return Collections.nCopies(entries.size(), DeliveryResult.delivered());
        });
        ExecutorService executor = Executors.newCachedThreadPool();
        try {
            int processed = processor(slowFirst, 2, executor).drain();

            assertEquals(4, processed);
        } finally {
            executor.shutdownNow();
        }
        assertEquals(List.of(true), firstSawTheSecond, "the second batch started while the first was in flight");
        assertTrue(store.rows.values().stream().allMatch(entry -> entry.status() == OutboxStatus.DELIVERED));
    }

    @Test
    void fullLeasedBatchesTheExecutorRefusesAreDeliveredOnTheWorkersThread() {
        for (int i = 0; i < 6; i++) {
            add("http");
        }
        Thread worker = Thread.currentThread();
        List<Boolean> onTheWorker = new ArrayList<>();
        AtomicInteger refusals = new AtomicInteger();

        int processed = processor(deliveringNotingThread(worker, onTheWorker), 2, task -> {
            refusals.incrementAndGet();
            throw new RejectedExecutionException("saturated");
        }).drain();

        assertEquals(6, processed);
        assertEquals(List.of(true, true, true, true, true, true), onTheWorker);
        assertEquals(3, refusals.get(), "each full batch was offered to the executor");
        assertTrue(store.rows.values().stream().allMatch(entry -> entry.status() == OutboxStatus.DELIVERED));
    }

    @Test
    void aShortLeasedBatchIsDeliveredOnTheWorkersThreadWithNoHandOver() {
        add("http");
        Thread worker = Thread.currentThread();
        List<Boolean> onTheWorker = new ArrayList<>();
        AtomicInteger handOvers = new AtomicInteger();

        int processed = processor(deliveringNotingThread(worker, onTheWorker), ProcessorSettings.DEFAULT.batchSize(),
                task -> {
                    handOvers.incrementAndGet();
                    new Thread(task).start();
                }).drain();

        assertEquals(1, processed);
        assertEquals(List.of(true), onTheWorker);
        assertEquals(0, handOvers.get(), "nothing to claim meanwhile: no hand-over");
    }

    @Test
    void leasesForADeliveryTypeWithoutADelivererAreRejectedNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new OutboxProcessor(store, transactions, List.of(deliverer("http", entry -> null)),
                        ProcessorSettings.DEFAULT, listener, Runnable::run, Clock.systemUTC(),
                        new LeaseSettings(Set.of("smtp"), Duration.ofMinutes(1), "me")));
        assertTrue(e.getMessage().contains("'smtp'"), e.getMessage());
    }

    @Test
    void aDrainGoesRoundWhileItsLeasedBatchesReleaseOrderingKeys() {
        List<UUID> key = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            key.add(store.insert(OutboxEntry.create(UUID.randomUUID(),
                    new OutboxMessage("t", "p").withOrderingKey("order-1"), new Delivery("http", "{}"), NOW)));
        }
        List<UUID> delivered = new ArrayList<>();

        int processed = processor(deliverer("http", entry -> {
            delivered.add(entry.id());
            return DeliveryResult.delivered();
        }), Duration.ofMinutes(1)).drain();

        assertEquals(5, processed, "one drain, although each leased batch held one entry of a batch size of 100");
        assertEquals(key, delivered);
    }

    private OutboxProcessor processor(MessageDeliverer deliverer, Duration lease) {
        return new OutboxProcessor(store, transactions, List.of(deliverer),
                ProcessorSettings.DEFAULT.withRetryPolicy(TWO_RETRIES), listener, Runnable::run,
                Clock.fixed(NOW, ZoneOffset.UTC), leases(lease), DeliveryTracing.NONE, () -> 0.0);
    }

    /** Delivers every entry of type http, noting in {@code onThread} whether each ran on {@code thread}. */
    private static MessageDeliverer deliveringNotingThread(Thread thread, List<Boolean> onThread) {
        return deliverer("http", entry -> {
            onThread.add(Thread.currentThread() == thread);
            return DeliveryResult.delivered();
        });
    }

    /** A lease-mode processor of one-minute leases handing work to {@code executor}. */
    private OutboxProcessor processor(MessageDeliverer deliverer, int batchSize, Executor executor) {
        return new OutboxProcessor(store, transactions, List.of(deliverer),
                ProcessorSettings.DEFAULT.withBatchSize(batchSize), listener, executor,
                Clock.fixed(NOW, ZoneOffset.UTC), leases(Duration.ofMinutes(1)), DeliveryTracing.NONE, () -> 0.0);
    }

    private static LeaseSettings leases(Duration length) {
        return new LeaseSettings(Set.of("http"), length, "test-instance");
    }

    private static void drainUntilIdle(OutboxProcessor processor) {
        for (int pass = 0; pass < 10; pass++) {
            processor.drain();
        }
    }

    private UUID add(String deliveryType) {
        return store.insert(OutboxEntry.create(UUID.randomUUID(), new OutboxMessage("t", "p"),
                new Delivery(deliveryType, "{}"), NOW));
    }

    private record Delivery(String deliveryType, String metadataJson) implements DeliveryInfo {
    }

    private static boolean await(CountDownLatch latch) {
        try {
            return latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Runs work at once, numbering the transactions and failing those {@link #failing} picks. */
    private static final class Transactions implements TransactionRunner {
        final AtomicInteger calls = new AtomicInteger();
        volatile boolean open;
        volatile IntPredicate failing = call -> false;

        @Override
        public <T> T inNewTransaction(Supplier<T> work) {
            if (failing.test(calls.incrementAndGet())) {
                throw new OutboxStoreException("database restarting", null);
            }
            open = true;
            try {
                return work.get();
            } finally {
                open = false;
            }
        }
    }

    private static final class Recorder implements OutboxListener {
        final List<Integer> committedSizes = new CopyOnWriteArrayList<>();
        final AtomicInteger failures = new AtomicInteger();
        final AtomicInteger leasesLost = new AtomicInteger();

        @Override
        public void onBatchCommitted(BatchReport report) {
            committedSizes.add(report.size());
        }

        @Override
        public void onBatchFailed(RuntimeException error) {
            failures.incrementAndGet();
        }

        @Override
        public void onLeasesLost(int count) {
            leasesLost.addAndGet(count);
        }
    }
}
