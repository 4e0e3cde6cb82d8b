package org.eeoutbox.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TimeZone;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import javax.sql.DataSource;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.RetryPolicy;
import org.eeoutbox.TraceContext;
import org.eeoutbox.engine.BatchReport;
import org.eeoutbox.engine.OutboxListener;
import org.eeoutbox.engine.OutboxProcessor;
import org.eeoutbox.engine.OutboxPurger;
import org.eeoutbox.engine.ProcessorSettings;
import org.eeoutbox.engine.PurgerSettings;
import org.eeoutbox.engine.StoreOutboxPublisher;
import org.eeoutbox.spi.OutboxStats;
import org.eeoutbox.spi.OutboxStore;
import org.eeoutbox.spi.OutboxStoreException;
import org.eeoutbox.spi.TransactionRunner;
import org.eeoutbox.testkit.Await;
import org.eeoutbox.testkit.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The store contract, written once and run unchanged against each real database: a subclass
 * supplies only the database. Test methods are final so a database cannot weaken a case.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
abstract class AbstractOutboxStoreTest {

    private static final Duration ZERO = Duration.ZERO;
    private static final RetryPolicy NO_BACKOFF = new RetryPolicy(1000, ZERO, 1.0, ZERO, 0.0);

    private final ExecutorService executor = Executors.newCachedThreadPool();
    private TestDatabase database;
    private DataSourceTransactions transactions;
    private JdbcOutboxStore store;
    private StoreOutboxPublisher publisher;

    /** Returns the real database to run against. */
    protected abstract TestDatabase database();

    /** Returns a statement that sets a non-UTC session time zone for the current transaction. */
    protected abstract String nonUtcSessionZoneSql();

    /** Returns a query counting the sessions that wait for a row or key lock right now. */
    protected abstract String lockWaitsSql();

    /**
     * Returns the statements that create login {@code user} (if missing) and grant it SELECT,
     * INSERT, UPDATE and DELETE on the outbox table, nothing else: the grants docs/operations.md
     * gives an application that does not own the table.
     */
    protected abstract List<String> applicationUserSql(String user, String password);

    /**
     * Returns instants at the ends of the range the database stores, in whole seconds (which every
     * store reads back exactly): by default the first and last second of the years 1000 to 9999,
     * MySQL's {@code DATETIME} range.
     */
    protected List<Instant> extremeInstants() {
        return List.of(Instant.parse("1000-01-01T00:00:00Z"), Instant.parse("9999-12-31T23:59:59Z"));
    }

    @BeforeAll
    final void createSchema() throws SQLException {
        database = database();
        database.dropOutboxTables();
        database.dropTables("business_record");
        transactions = new DataSourceTransactions(database.dataSource());
        try (Connection connection = database.dataSource().getConnection();
             Statement statement = connection.createStatement()) {
            store = new JdbcOutboxStore(transactions, SqlDialect.detect(connection));
            OutboxSchema.verify(connection, store.dialect(), true);
            statement.execute("CREATE TABLE business_record (id VARCHAR(64) NOT NULL PRIMARY KEY)");
        }
        publisher = new StoreOutboxPublisher(store, StoreOutboxPublisher.DEFAULT_MAX_PAYLOAD_BYTES, Clock.systemUTC());
    }

    @BeforeEach
    final void emptyTables() {
        sql("DELETE FROM outbox");
        sql("DELETE FROM business_record");
    }

    @AfterAll
    final void stopExecutor() {
        executor.shutdownNow();
    }

    // ---------------------------------------------------------------- claim

    @Test
    final void claimReturnsOnlyDueEntriesOfTheRequestedTypesOldestFirst() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        UUID dueHttpOld = insert("http", now.minusSeconds(20));
        UUID dueHttpNew = insert("http", now.minusSeconds(10));
        UUID dueKafka = insert("kafka", now.minusSeconds(15));
        insert("http", now.plusSeconds(60));
        insert("smtp", now.minusSeconds(30));

        List<UUID> claimed = tx(() -> ids(store.claim(Set.of("http", "kafka"), now, 10)));

        assertEquals(List.of(dueHttpOld, dueKafka, dueHttpNew), claimed);
        assertEquals(List.of(dueHttpOld), tx(() -> ids(store.claim(Set.of("http"), now, 1))));
        assertEquals(List.of(), tx(() -> ids(store.claim(Set.of(), now, 10))));
    }

    @Test
    final void aClaimOrLeaseFromADueTimeLeavesOutTheEntriesDueBeforeIt() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        insert("http", now.minusSeconds(20));
        UUID atTheStart = insert("http", now.minusSeconds(10));
        UUID after = insert("http", now.minusSeconds(5));
        insert("http", now.plusSeconds(60));

        assertEquals(List.of(atTheStart, after),
                tx(() -> ids(store.claim(Set.of("http"), now.minusSeconds(10), now, 10))));
        assertEquals(List.of(atTheStart, after), tx(() -> store.lease(Set.of("http"), now.minusSeconds(10), now, 10,
                "owner", Duration.ofMinutes(1)).stream().map(lease -> lease.entry().id()).toList()));
    }

    @Test
    final void aClaimOrLeaseOfNoRowsIsRefusedNamingTheLimit() {
        Instant now = Instant.now();
        IllegalArgumentException claim = assertThrows(IllegalArgumentException.class,
                () -> tx(() -> store.claim(Set.of("http"), now, 0)));
        assertEquals("limit must be > 0, got: 0", claim.getMessage());
        IllegalArgumentException lease = assertThrows(IllegalArgumentException.class,
                () -> tx(() -> store.lease(Set.of("http"), now, -1, "owner", Duration.ofMinutes(1))));
        assertEquals("limit must be > 0, got: -1", lease.getMessage());
    }

    @Test
    final void claimSkipsDeliveredAndFailedEntries() {
        Instant now = Instant.now();
        UUID pending = insert("http", now.minusSeconds(1));
        UUID delivered = insert("http", now.minusSeconds(1));
        UUID failed = insert("http", now.minusSeconds(1));
        tx(() -> {
            List<OutboxEntry> claimed = store.claim(Set.of("http"), now, 10);
            List<OutboxEntry> updated = new ArrayList<>();
            for (OutboxEntry entry : claimed) {
                if (entry.id().equals(delivered)) {
                    updated.add(entry.toDelivered(now));
                } else if (entry.id().equals(failed)) {
                    updated.add(entry.toFailed(now, "gone"));
                }
            }
            store.update(updated);
            return null;
        });
        assertEquals(List.of(pending), tx(() -> ids(store.claim(Set.of("http"), now, 10))));
    }

    @Test
    final void aClaimedEntryHoldsEveryValueOfItsRowInANonUtcSession() {
        Instant created = Instant.parse("2026-03-29T00:59:59.999999Z");
        Instant retried = Instant.parse("2026-03-29T01:00:00.000001Z");
        Instant due = Instant.parse("2026-10-25T01:30:00.25Z");
        UUID id = tx(() -> store.insert(entry("http", created, "order-7:created")));
        tx(() -> {
            OutboxEntry first = store.claim(Set.of("http"), created, 10).get(0);
            store.update(List.of(first.toRetry(retried, due, "HTTP 503")));
            return null;
        });

        OutboxEntry claimed = tx(() -> {
            sqlInCurrentTransaction(nonUtcSessionZoneSql());
            return store.claim(Set.of("http"), due, 10).get(0);
        });

        assertEquals(find(id), claimed, "the claim reads what find reads");
        assertEquals("order-7:created", claimed.deduplicationKey());
        assertEquals(OutboxStatus.PENDING, claimed.status());
        assertEquals(1, claimed.attempts());
        assertEquals(due, claimed.nextAttemptAt());
        assertEquals(created, claimed.createdAt());
        assertEquals(retried, claimed.updatedAt());
        assertEquals("HTTP 503", claimed.lastError());
        assertNull(claimed.deliveredAt());
    }

    @Test
    final void theTraceContextRoundTripsThroughInsertClaimAndFindWithAndWithoutAnOrderingKey() {
        Instant now = Instant.now();
        TraceContext trace = new TraceContext("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
                "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7");
        UUID traced = tx(() -> store.insert(entry("http", now, null).withTraceContext(trace)));
        OutboxMessage keyed = new OutboxMessage("test", "{}").withOrderingKey("order-1");
        UUID tracedKeyed = tx(() -> store.insert(OutboxEntry.create(UUID.randomUUID(), keyed, new TestDelivery("http"),
                now).withTraceContext(new TraceContext(trace.traceparent(), null))));
        UUID untraced = insert("http", now);

        List<OutboxEntry> claimed = tx(() -> store.claim(Set.of("http"), now, 10));

        assertEquals(trace, find(traced).traceContext());
        assertEquals(new TraceContext(trace.traceparent(), null), find(tracedKeyed).traceContext());
        assertNull(find(untraced).traceContext());
        for (OutboxEntry entry : claimed) {
            assertEquals(find(entry.id()).traceContext(), entry.traceContext(), "the claim reads what find reads");
        }
    }

    @Test
    final void aTraceContextEditedIntoSomethingInvalidIsDroppedWithoutFailingTheClaim() {
        Instant now = Instant.now();
        UUID id = insert("http", now);
        sql("UPDATE outbox SET trace_parent = 'not-a-traceparent', trace_state = 'a=1'");

        List<OutboxEntry> claimed = tx(() -> store.claim(Set.of("http"), now, 10));

        assertEquals(List.of(id), ids(claimed));
        assertNull(claimed.get(0).traceContext());
    }

    @Test
    final void twoOpenTransactionsClaimDisjointRowsWithoutWaiting() throws Exception {
        Instant now = Instant.now();
        Set<UUID> all = new HashSet<>();
        for (int i = 0; i < 30; i++) {
            all.add(insert("http", now.minusSeconds(1)));
        }
        CountDownLatch firstHoldsLocks = new CountDownLatch(1);
        CountDownLatch secondDone = new CountDownLatch(1);
        CompletableFuture<List<UUID>> first = CompletableFuture.supplyAsync(() -> tx(() -> {
            List<UUID> claimed = ids(store.claim(Set.of("http"), now, 20));
            firstHoldsLocks.countDown();
            await(secondDone);
            return claimed;
        }), executor);
        assertTrue(firstHoldsLocks.await(30, TimeUnit.SECONDS));
        List<UUID> second;
        try {
            second = tx(() -> ids(store.claim(Set.of("http"), now, 20)));
        } finally {
            secondDone.countDown();
        }
        List<UUID> firstClaimed = first.get(30, TimeUnit.SECONDS);

        assertEquals(20, firstClaimed.size());
        assertEquals(10, second.size(), "the second claim gets exactly the rows the first did not lock");
        Set<UUID> union = new HashSet<>(firstClaimed);
        union.addAll(second);
        assertEquals(all, union);
    }

    // ---------------------------------------------------------------- outcomes

    @Test
    final void retriableFailureSchedulesTheBackoffDueTime() {
        Instant now = Instant.parse("2026-03-29T00:59:59.123456Z");
        Clock clock = Clock.fixed(now, ZoneOffset.UTC);
        UUID id = insert("http", now);
        RetryPolicy policy = new RetryPolicy(5, Duration.ofSeconds(10), 2.0, Duration.ofMinutes(10), 0.0);
        RecordingDeliverer failing = new RecordingDeliverer("http", entry -> DeliveryResult.retriable("503"));

        processor(failing, ProcessorSettings.DEFAULT.withRetryPolicy(policy), clock).drain();
        OutboxEntry afterFirst = find(id);
        assertEquals(OutboxStatus.PENDING, afterFirst.status());
        assertEquals(1, afterFirst.attempts());
        assertEquals(now.plusSeconds(10), afterFirst.nextAttemptAt());
        assertEquals("503", afterFirst.lastError());

        Instant later = now.plusSeconds(10);
        processor(failing, ProcessorSettings.DEFAULT.withRetryPolicy(policy), Clock.fixed(later, ZoneOffset.UTC)).drain();
        OutboxEntry afterSecond = find(id);
        assertEquals(2, afterSecond.attempts());
        assertEquals(later.plusSeconds(20), afterSecond.nextAttemptAt());
    }

    @Test
    final void retryAfterLaterThanTheBackoffWins() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Instant notBefore = now.plus(Duration.ofHours(1));
        UUID id = insert("http", now);
        RecordingDeliverer deliverer = new RecordingDeliverer("http", entry -> DeliveryResult.retriable("429", notBefore));

        processor(deliverer, ProcessorSettings.DEFAULT, Clock.fixed(now, ZoneOffset.UTC)).drain();

        assertEquals(notBefore, find(id).nextAttemptAt());
    }

    @Test
    final void batchUpdateWritesEveryOutcomeOfAMixedBatch() {
        writeAMixedBatch(store, ProcessorSettings.DEFAULT.withDispatch(ProcessorSettings.TransportDispatch.SEQUENTIAL),
                () -> { });
    }

    /**
     * Parallel dispatch writes a full batch as delivered while its deliveries run, then the others
     * again: here the deliveries end only after that first write, so the second must undo it.
     */
    @Test
    final void aBatchWrittenDeliveredWhileDeliveringEndsWithTheSameOutcomes() {
        CountDownLatch writtenDelivered = new CountDownLatch(1);
        OutboxStore observed = (OutboxStore) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {OutboxStore.class}, (proxy, method, args) -> {
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    } finally {
                        if (method.getName().equals("update")) {
                            writtenDelivered.countDown();
                        }
                    }
                });
        // A full batch: a short one is written once, after its deliveries.
        writeAMixedBatch(observed, ProcessorSettings.DEFAULT.withBatchSize(6), () -> {
            try {
                assertTrue(writtenDelivered.await(30, TimeUnit.SECONDS), "the batch was not written meanwhile");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /**
     * Drains a batch of three deliveries, a retry, a permanent failure and a postponement, each
     * delivery after {@code beforeEach}, and checks every outcome as written.
     */
    private void writeAMixedBatch(OutboxStore target, ProcessorSettings settings, Runnable beforeEach) {
        Map<String, UUID> byPayload = new TreeMap<>();
        for (String payload : List.of("ok-1", "ok-2", "ok-3", "retry", "permanent", "postpone")) {
            byPayload.put(payload, publish(payload, "http"));
        }
        Instant now = Instant.now().plusSeconds(1).truncatedTo(ChronoUnit.MICROS);
        Instant postponeUntil = now.plusSeconds(300);
        RecordingDeliverer deliverer = new RecordingDeliverer("http", entry -> {
            beforeEach.run();
            return switch (entry.payload()) {
                case "retry" -> DeliveryResult.retriable("timeout");
                case "permanent" -> DeliveryResult.permanent("HTTP 404");
                case "postpone" -> DeliveryResult.postponed("producer closed", postponeUntil);
                default -> DeliveryResult.delivered();
            };
        });
        List<BatchReport> reports = new ArrayList<>();
        OutboxListener listener = new OutboxListener() {
            @Override
            public void onBatchCommitted(BatchReport report) {
                reports.add(report);
            }
        };
        new OutboxProcessor(target, transactions, List.of(deliverer), settings, listener, executor,
                Clock.fixed(now, ZoneOffset.UTC)).drain();

        for (String ok : List.of("ok-1", "ok-2", "ok-3")) {
            OutboxEntry entry = find(byPayload.get(ok));
            assertEquals(OutboxStatus.DELIVERED, entry.status());
            assertEquals(1, entry.attempts());
            assertEquals(now, entry.deliveredAt());
        }
        OutboxEntry retried = find(byPayload.get("retry"));
        assertEquals(OutboxStatus.PENDING, retried.status());
        assertEquals(1, retried.attempts());
        assertTrue(retried.nextAttemptAt().isAfter(now));
        assertNull(retried.deliveredAt());
        OutboxEntry failed = find(byPayload.get("permanent"));
        assertEquals(OutboxStatus.FAILED, failed.status());
        assertEquals("HTTP 404", failed.lastError());
        assertNull(failed.deliveredAt());
        OutboxEntry postponed = find(byPayload.get("postpone"));
        assertEquals(OutboxStatus.PENDING, postponed.status());
        assertEquals(0, postponed.attempts(), "a postponed entry keeps its retry budget");
        assertEquals(postponeUntil, postponed.nextAttemptAt());
        assertNull(postponed.deliveredAt());
        assertEquals(2, database.queryForLong("SELECT COUNT(*) FROM outbox_attempt"),
                "the retry and the permanent failure in the history, nothing for the deliveries");
        assertEquals(1, reports.size());
        assertEquals(6, reports.get(0).size());
    }

    @Test
    final void deliveryClearsTheErrorOfAnEarlierAttempt() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        UUID id = insert("http", now);
        processor(new RecordingDeliverer("http", entry -> DeliveryResult.retriable("HTTP 503")),
                ProcessorSettings.DEFAULT.withRetryPolicy(NO_BACKOFF), Clock.fixed(now, ZoneOffset.UTC)).drain();
        assertEquals("HTTP 503", find(id).lastError());

        processor(RecordingDeliverer.alwaysDelivering("http"), ProcessorSettings.DEFAULT.withRetryPolicy(NO_BACKOFF),
                Clock.fixed(now, ZoneOffset.UTC)).drain();

        OutboxEntry delivered = find(id);
        assertEquals(OutboxStatus.DELIVERED, delivered.status());
        assertEquals(2, delivered.attempts());
        assertNull(delivered.lastError());
        assertEquals(0, database.queryForLong("SELECT COUNT(*) FROM outbox WHERE last_error IS NOT NULL"));
    }

    @Test
    final void entryBecomesFailedWhenTheRetryBudgetIsSpent() {
        UUID id = publish("payload", "http");
        RetryPolicy twoRetries = new RetryPolicy(2, ZERO, 1.0, ZERO, 0.0);
        RecordingDeliverer failing = new RecordingDeliverer("http", entry -> DeliveryResult.retriable("503"));
        OutboxProcessor processor = processor(failing, ProcessorSettings.DEFAULT.withRetryPolicy(twoRetries),
                Clock.systemUTC());

        for (int pass = 0; pass < 5; pass++) {
            processor.drain();
        }

        OutboxEntry entry = find(id);
        assertEquals(OutboxStatus.FAILED, entry.status());
        assertEquals(3, entry.attempts(), "one attempt plus two retries");
        assertEquals(3, failing.attempts.get(id).get());
        assertTrue(entry.lastError().contains("retries exhausted after 3 attempts"), entry.lastError());
    }

    @Test
    final void failedBatchLeavesItsEntriesUntouchedAndIsReported() {
        UUID id = publish("payload", "http");
        List<RuntimeException> failures = new ArrayList<>();
        List<BatchReport> committed = new ArrayList<>();
        OutboxListener listener = new OutboxListener() {
            @Override
            public void onBatchCommitted(BatchReport report) {
                committed.add(report);
            }

            @Override
            public void onBatchFailed(RuntimeException error) {
                failures.add(error);
            }
        };
        RecordingDeliverer deliverer = RecordingDeliverer.alwaysDelivering("http");
        TransactionRunner commitFails = new TransactionRunner() {
            @Override
            public <T> T inNewTransaction(Supplier<T> work) {
                return transactions.inNewTransaction(() -> {
                    work.get();
                    throw new IllegalStateException("commit refused");
                });
            }
        };

        new OutboxProcessor(store, commitFails, List.of(deliverer), ProcessorSettings.DEFAULT, listener, executor,
                Clock.systemUTC()).drain();

        assertEquals(1, failures.size());
        assertEquals(List.of(), committed, "no committed event for a batch whose commit failed");
        OutboxEntry entry = find(id);
        assertEquals(OutboxStatus.PENDING, entry.status());
        assertEquals(0, entry.attempts());
    }

    // ---------------------------------------------------------------- purge

    @Test
    final void purgeDeletesOldDeliveredEntriesInBatchesAndKeepsTheRest() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Instant old = now.minus(Duration.ofDays(8));
        Set<UUID> oldDelivered = new HashSet<>();
        for (int i = 0; i < 25; i++) {
            oldDelivered.add(insertInState("http", OutboxStatus.DELIVERED, old, null));
        }
        UUID youngDelivered = insertInState("http", OutboxStatus.DELIVERED, now.minus(Duration.ofDays(1)), null);
        UUID oldFailed = insertInState("http", OutboxStatus.FAILED, old, null);
        UUID oldPending = insert("http", old);
        UUID keyedInWindow = insertInState("http", OutboxStatus.DELIVERED, old, "order-1:created");
        UUID keyedPastWindow = insertInState("http", OutboxStatus.DELIVERED, now.minus(Duration.ofDays(31)),
                "order-2:created");
        CountingTransactions counting = new CountingTransactions(transactions);
        PurgerSettings settings = new PurgerSettings(Duration.ofDays(7), Duration.ofDays(30), Duration.ofDays(30), 10,
                Duration.ofSeconds(30));

        int purged = new OutboxPurger(store, counting, settings, Clock.systemUTC()).purge();

        assertEquals(26, purged, "25 old delivered entries plus the keyed one past its window");
        assertEquals(4, counting.count(), "batches of 10, 10 and 6, then one of discarded entries (none), "
                + "each in its own transaction");
        for (UUID id : oldDelivered) {
            assertTrue(tx(() -> store.find(id)).isEmpty());
        }
        assertTrue(tx(() -> store.find(keyedPastWindow)).isEmpty());
        for (UUID kept : List.of(youngDelivered, oldFailed, oldPending, keyedInWindow)) {
            assertTrue(tx(() -> store.find(kept)).isPresent(), "kept " + kept);
        }
    }

    // ---------------------------------------------------------------- values

    @Test
    final void instantsRoundTripUnchangedInANonUtcJvmAndSession() {
        TimeZone original = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("Europe/Oslo"));
        try {
            // Both sides of the 2026 daylight-saving changes in Oslo, and a leap day.
            List<Instant> instants = List.of(
                    Instant.parse("2026-03-29T00:59:59.999999Z"), Instant.parse("2026-03-29T01:00:00.000001Z"),
                    Instant.parse("2026-10-25T00:30:00.5Z"), Instant.parse("2026-10-25T01:30:00.25Z"),
                    Instant.parse("2028-02-29T23:59:59.123456Z"));
            for (Instant instant : instants) {
                UUID id = tx(() -> {
                    sqlInCurrentTransaction(nonUtcSessionZoneSql());
                    return store.insert(entry("http", instant, null));
                });
                OutboxEntry read = tx(() -> {
                    sqlInCurrentTransaction(nonUtcSessionZoneSql());
                    return store.find(id).orElseThrow();
                });
                assertEquals(instant, read.createdAt());
                assertEquals(instant, read.nextAttemptAt());
            }
        } finally {
            TimeZone.setDefault(original);
        }
    }

    @Test
    final void instantsAtTheEndsOfTheStoredRangeRoundTripAndCompare() {
        for (Instant instant : extremeInstants()) {
            UUID id = tx(() -> store.insert(entry("extreme", instant, null)));
            OutboxEntry read = find(id);
            assertEquals(instant, read.createdAt());
            assertEquals(instant, read.nextAttemptAt());
            assertEquals(List.of(id), tx(() -> ids(store.claim(Set.of("extreme"), instant, 10))),
                    "due at " + instant);
            assertEquals(List.of(), tx(() -> ids(store.claim(Set.of("extreme"), instant.minusSeconds(1), 10))),
                    "not yet due a second before " + instant);
            tx(() -> {
                store.update(List.of(read.toDelivered(instant)));
                return null;
            });
        }
    }

    @Test
    final void nanosecondsAreTruncatedToMicroseconds() {
        Instant withNanos = Instant.parse("2026-12-02T10:00:00.123456789Z");
        UUID id = tx(() -> store.insert(entry("http", withNanos, null)));
        assertEquals(Instant.parse("2026-12-02T10:00:00.123456Z"), find(id).createdAt());
    }

    @Test
    final void aSixteenMebibytePayloadRoundTrips() {
        StringBuilder payload = new StringBuilder(16 * 1024 * 1024);
        while (payload.length() < 16 * 1024 * 1024) {
            payload.append("0123456789abcdef");
        }
        StoreOutboxPublisher large = new StoreOutboxPublisher(store, 32L * 1024 * 1024, Clock.systemUTC());
        UUID id = tx(() -> large.publish(new OutboxMessage("big", payload.toString()), new TestDelivery("http")));
        assertEquals(payload.toString(), find(id).payload());
    }

    @Test
    final void fourByteUtf8CharactersRoundTrip() {
        String payload = "{\"emoji\":\"\uD83D\uDE80\uD83C\uDF89\",\"text\":\"Grüße 日本\"}";
        UUID id = publish(payload, "http");
        assertEquals(payload, find(id).payload());
    }

    @Test
    final void statsCountPendingAndFailedAndAgeTheOldestPending() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        tx(() -> store.insert(entry("http", now.minusSeconds(90), null)));
        tx(() -> store.insert(entry("http", now.minusSeconds(30), null)));
        insertInState("http", OutboxStatus.FAILED, now, null);
        insertInState("http", OutboxStatus.DELIVERED, now, null);

        OutboxStats stats = tx(() -> store.stats(now));

        assertEquals(2, stats.pending());
        assertEquals(1, stats.failed());
        assertEquals(Duration.ofSeconds(90), stats.oldestPendingAge());
    }

    // ---------------------------------------------------------------- publish

    @Test
    final void repeatedDeduplicationKeyReturnsTheFirstIdAndKeepsTheTransactionUsable() {
        OutboxMessage message = new OutboxMessage("order.created", "{}").withDeduplicationKey("order-42:created");
        UUID first = tx(() -> publisher.publish(message, new TestDelivery("http")));

        UUID second = tx(() -> {
            UUID id = publisher.publish(message, new TestDelivery("http"));
            sqlInCurrentTransaction("INSERT INTO business_record (id) VALUES ('after-duplicate')");
            return id;
        });

        assertEquals(first, second);
        assertEquals(1, database.queryForLong("SELECT COUNT(*) FROM outbox"));
        assertEquals(1, database.queryForLong("SELECT COUNT(*) FROM business_record"), "the caller's transaction committed");
    }

    @Test
    final void sameKeyForAnotherDeliveryTypeIsRejectedNamingTheKeyTheHolderAndTheFix() {
        OutboxMessage message = new OutboxMessage("invoice.issued", "{}").withDeduplicationKey("invoice-42");
        UUID webhook = tx(() -> publisher.publish(message, new TestDelivery("http")));

        IllegalArgumentException e = tx(() -> {
            IllegalArgumentException rejected = assertThrows(IllegalArgumentException.class,
                    () -> publisher.publish(message, new TestDelivery("kafka")));
            sqlInCurrentTransaction("INSERT INTO business_record (id) VALUES ('after-rejection')");
            return rejected;
        });

        for (String part : List.of("'invoice-42'", webhook.toString(), "'http'", "'invoice-42:kafka'")) {
            assertTrue(e.getMessage().contains(part), "'" + e.getMessage() + "' should name " + part);
        }
        assertEquals(1, database.queryForLong("SELECT COUNT(*) FROM outbox"));
        assertEquals(1, database.queryForLong("SELECT COUNT(*) FROM business_record"), "the caller's transaction committed");
    }

    @Test
    final void sameKeyWithOtherMetadataIsRejectedAndEqualJsonIsADuplicate() {
        OutboxMessage message = new OutboxMessage("invoice.issued", "{}").withDeduplicationKey("invoice-43");
        UUID first = tx(() -> publisher.publish(message, new TestDelivery("http", "{\"service\":\"billing\",\"n\":1}")));

        UUID reordered = tx(() -> publisher.publish(message,
                new TestDelivery("http", "{ \"n\" : 1, \"service\" : \"billing\" }")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> tx(() -> publisher.publish(
                message, new TestDelivery("http", "{\"service\":\"audit\",\"n\":1}"))));

        assertEquals(first, reordered, "the same JSON value in another key order and spacing is the same delivery");
        assertTrue(e.getMessage().contains(first.toString()) && e.getMessage().contains("other delivery metadata"),
                e.getMessage());
        assertEquals(1, database.queryForLong("SELECT COUNT(*) FROM outbox"));
    }

    @Test
    final void sameKeyFromTwoConcurrentTransactionsLeavesOneRow() throws Exception {
        OutboxMessage message = new OutboxMessage("order.created", "{}").withDeduplicationKey("order-7:created");
        CountDownLatch firstInserted = new CountDownLatch(1);
        CountDownLatch secondStarted = new CountDownLatch(1);
        CompletableFuture<UUID> first = CompletableFuture.supplyAsync(() -> tx(() -> {
            UUID id = publisher.publish(message, new TestDelivery("http"));
            firstInserted.countDown();
            await(secondStarted);
            // Commit once the second insert waits for the key's lock (the race this is about), or
            // after 10 s: a loaded machine must not turn the wait into a failure, and the
            // assertions below hold either way.
            try {
                Await.until(Duration.ofSeconds(10), Duration.ofMillis(10),
                        () -> database.queryForLong(lockWaitsSql()) > 0, () -> "no lock wait seen");
            } catch (AssertionError notSeen) {
                // commit anyway
            }
            return id;
        }), executor);
        assertTrue(firstInserted.await(30, TimeUnit.SECONDS));
        CompletableFuture<UUID> second = CompletableFuture.supplyAsync(() -> tx(() -> {
            secondStarted.countDown();
            UUID id = publisher.publish(message, new TestDelivery("http"));
            sqlInCurrentTransaction("INSERT INTO business_record (id) VALUES ('second')");
            return id;
        }), executor);

        assertEquals(first.get(60, TimeUnit.SECONDS), second.get(60, TimeUnit.SECONDS));
        assertEquals(1, database.queryForLong("SELECT COUNT(*) FROM outbox"));
        assertEquals(1, database.queryForLong("SELECT COUNT(*) FROM business_record"));
    }

    @Test
    final void publishRejectsBadInputNamingTheArgumentAndWritesNothing() {
        StoreOutboxPublisher small = new StoreOutboxPublisher(store, 10, Clock.systemUTC());
        assertMessageNames("payload", () -> tx(() -> small.publish(new OutboxMessage("t", "12345678901"),
                new TestDelivery("http"))));
        assertMessageNames("message", () -> tx(() -> publisher.publish(null, new TestDelivery("http"))));
        assertMessageNames("deliveryInfo", () -> tx(() -> publisher.publish(new OutboxMessage("t", "{}"), null)));
        assertMessageNames("deliveryType", () -> tx(() -> publisher.publish(new OutboxMessage("t", "{}"),
                new TestDelivery(" "))));
        assertMessageNames("payload", () -> tx(() -> publisher.publish(new OutboxMessage("t", "bad \uD800 surrogate"),
                new TestDelivery("http"))));
        assertEquals(0, database.queryForLong("SELECT COUNT(*) FROM outbox"));
    }

    @Test
    final void metadataThatIsNotJsonIsRefusedByTheDatabase() {
        OutboxStoreException e = assertThrows(OutboxStoreException.class, () -> tx(() -> publisher.publish(
                new OutboxMessage("t", "{}"), new TestDelivery("sms", "phone=+41"))));

        assertTrue(e.getMessage().startsWith("Could not insert outbox entry"), e.getMessage());
        assertEquals(0, database.queryForLong("SELECT COUNT(*) FROM outbox"));
    }

    @Test
    final void publishOutsideATransactionFailsAndWritesNothing() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> publisher.publish(new OutboxMessage("t", "{}"), new TestDelivery("http")));
        assertTrue(e.getMessage().contains("No transaction is active"), e.getMessage());
        assertEquals(0, database.queryForLong("SELECT COUNT(*) FROM outbox"));
    }

    @Test
    final void rolledBackPublishLeavesNoRow() {
        assertThrows(IllegalStateException.class, () -> tx(() -> {
            publisher.publish(new OutboxMessage("t", "{}"), new TestDelivery("http"));
            throw new IllegalStateException("business failure");
        }));
        assertEquals(0, database.queryForLong("SELECT COUNT(*) FROM outbox"));
    }

    // ---------------------------------------------------------------- volume

    @Test
    final void fourWorkersDrainTwentyThousandEntriesEachExactlyOnce() {
        Set<UUID> published = publishMany(20_000, "http");
        RecordingDeliverer deliverer = RecordingDeliverer.alwaysDelivering("http");
        OutboxProcessor processor = processor(deliverer, ProcessorSettings.DEFAULT.withConcurrency(4), Clock.systemUTC());

        int processed = drainUntilNothingPending(processor);

        assertEquals(20_000, processed);
        assertEquals(published, deliverer.successes.keySet());
        assertTrue(deliverer.attempts.values().stream().allMatch(count -> count.get() == 1), "a row was delivered twice");
        assertEquals(20_000, database.queryForLong("SELECT COUNT(*) FROM outbox WHERE status = 'DELIVERED'"));
    }

    @Test
    final void randomRetriableFailuresEndWithEveryEntryDeliveredOnce() {
        Set<UUID> published = publishMany(2_000, "http");
        RecordingDeliverer flaky = new RecordingDeliverer("http", entry -> ThreadLocalRandom.current().nextDouble() < 0.3
                ? DeliveryResult.retriable("random failure")
                : DeliveryResult.delivered());
        OutboxProcessor processor = processor(flaky,
                ProcessorSettings.DEFAULT.withConcurrency(2).withRetryPolicy(NO_BACKOFF), Clock.systemUTC());

        drainUntilNothingPending(processor);

        assertEquals(published, flaky.successes.keySet());
        assertTrue(flaky.successes.values().stream().allMatch(count -> count.get() == 1), "a row was delivered twice");
        assertTrue(flaky.attempts.values().stream().anyMatch(count -> count.get() > 1), "some entries were retried");
        assertEquals(2_000, database.queryForLong("SELECT COUNT(*) FROM outbox WHERE status = 'DELIVERED'"));
        assertEquals(flaky.attempts.values().stream().mapToInt(AtomicInteger::get).sum(),
                database.queryForLong("SELECT SUM(attempts) FROM outbox"), "every attempt was recorded");
    }

    // ---------------------------------------------------------------- schema

    @Test
    final void schemaCheckRefusesATableOfAnotherVersionOrUnknownOrigin() throws SQLException {
        try (Connection connection = database.dataSource().getConnection()) {
            OutboxSchema.verify(connection, store.dialect(), false);
            setTableComment(connection, "eeoutbox schema " + (OutboxSchema.VERSION + 1));
            IllegalStateException newer = assertThrows(IllegalStateException.class,
                    () -> OutboxSchema.verify(connection, store.dialect(), true));
            assertTrue(newer.getMessage().contains("schema version " + (OutboxSchema.VERSION + 1)), newer.getMessage());
            setTableComment(connection, "someone elses table");
            IllegalStateException unknown = assertThrows(IllegalStateException.class,
                    () -> OutboxSchema.verify(connection, store.dialect(), true));
            assertTrue(unknown.getMessage().contains("not an EE Outbox table"), unknown.getMessage());
        } finally {
            try (Connection connection = database.dataSource().getConnection()) {
                setTableComment(connection, "eeoutbox schema " + OutboxSchema.VERSION);
            }
        }
    }

    @Test
    final void schemaCheckNamesTheMigrationWhenTheTableIsMissing() throws SQLException {
        sql("ALTER TABLE outbox RENAME TO outbox_aside");
        try (Connection connection = database.dataSource().getConnection()) {
            IllegalStateException missing = assertThrows(IllegalStateException.class,
                    () -> OutboxSchema.verify(connection, store.dialect(), false));
            assertTrue(missing.getMessage().contains(store.dialect().migrationResource(1) + " then "
                    + store.dialect().migrationResource(2)), missing.getMessage());
            assertTrue(missing.getMessage().contains("outbox.schema.create"), missing.getMessage());
        } finally {
            sql("ALTER TABLE outbox_aside RENAME TO outbox");
        }
    }

    @Test
    final void aVersionOneTableHoldingEntriesIsUpgradedAndItsEntriesAreThenDelivered() throws SQLException {
        OutboxTables.recreateAtVersionOne(database, store.dialect());
        for (int n = 0; n < 3; n++) {
            OutboxTables.insertAtVersionOne(database, store.dialect(), "http", "{\"n\":" + n + "}", Instant.now());
        }
        sql("UPDATE outbox SET status = 'FAILED', last_error = 'HTTP 404' WHERE payload = '{\"n\":0}'");

        try (Connection connection = database.dataSource().getConnection()) {
            IllegalStateException older = assertThrows(IllegalStateException.class,
                    () -> OutboxSchema.verify(connection, store.dialect(), false));
            assertTrue(older.getMessage().contains("schema version 1; this library needs version 2"), older.getMessage());
            assertTrue(older.getMessage().contains(store.dialect().migrationResource(2)), older.getMessage());
            assertTrue(older.getMessage().contains("outbox.schema.create=true"), older.getMessage());

            OutboxSchema.verify(connection, store.dialect(), true);
            OutboxSchema.verify(connection, store.dialect(), false);
        }

        RecordingDeliverer deliverer = RecordingDeliverer.alwaysDelivering("http");
        assertEquals(2, drainUntilNothingPending(processor(deliverer, ProcessorSettings.DEFAULT, Clock.systemUTC())));
        assertEquals(2, database.queryForLong("SELECT COUNT(*) FROM outbox WHERE status = 'DELIVERED'"));
        assertEquals(1, database.queryForLong("SELECT COUNT(*) FROM outbox WHERE status = 'FAILED'"));
        assertEquals(0, database.queryForLong("SELECT COUNT(*) FROM outbox_attempt"));
        assertEquals(0, database.queryForLong("SELECT COUNT(*) FROM outbox_pause"));
    }

    @Test
    final void instancesStartingTogetherCreateTheSchemaOnce() throws Exception {
        database.dropOutboxTables();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> instances = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            instances.add(executor.submit(() -> {
                start.await();
                try (Connection connection = database.dataSource().getConnection()) {
                    OutboxSchema.verify(connection, store.dialect(), true);
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> instance : instances) {
            instance.get(2, TimeUnit.MINUTES);
        }

        try (Connection connection = database.dataSource().getConnection()) {
            assertEquals("eeoutbox schema " + OutboxSchema.VERSION, store.dialect().readTableComment(connection));
        }
        assertEquals(1, publishMany(1, "http").size());
    }

    @Test
    final void jtaCheckRefusesADataSourceThatIsNotReadCommitted() throws SQLException {
        DataSource repeatableRead = (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    Object result = method.invoke(database.dataSource(), args);
                    if (method.getName().equals("getConnection")) {
                        ((Connection) result).setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
                    }
                    return result;
                });

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> DatabaseCheck.forJtaTransactions(repeatableRead, false));

        assertTrue(e.getMessage().contains("runs at REPEATABLE READ isolation"), e.getMessage());
        assertTrue(e.getMessage().contains("isolationLevel = Connection.TRANSACTION_READ_COMMITTED"), e.getMessage());
        assertEquals(store.dialect().name(), DatabaseCheck.forLocalTransactions(repeatableRead, false).name(),
                "local transactions set READ COMMITTED themselves");
    }

    @Test
    final void anApplicationUserWithSelectInsertUpdateAndDeleteOnTheTableRunsEveryOperation() throws SQLException {
        applicationUserSql("outbox_app", "app-secret").forEach(this::sql);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(database.jdbcUrl());
        config.setUsername("outbox_app");
        config.setPassword("app-secret");
        config.setMaximumPoolSize(2);
        try (HikariDataSource dataSource = new HikariDataSource(config);
             Connection connection = dataSource.getConnection()) {
            DataSourceTransactions app = new DataSourceTransactions(dataSource);
            JdbcOutboxStore appStore = new JdbcOutboxStore(app, SqlDialect.detect(connection));
            OutboxSchema.verify(connection, appStore.dialect(), false);
            StoreOutboxPublisher appPublisher = new StoreOutboxPublisher(appStore,
                    StoreOutboxPublisher.DEFAULT_MAX_PAYLOAD_BYTES, Clock.systemUTC());
            OutboxMessage message = new OutboxMessage("t", "{}").withDeduplicationKey("least-privilege")
                    .withOrderingKey("least-privilege");
            UUID id = app.inNewTransaction(() -> appPublisher.publish(message, new TestDelivery("http")));
            assertEquals(id, app.inNewTransaction(() -> appPublisher.publish(message, new TestDelivery("http"))));

            int delivered = new OutboxProcessor(appStore, app, List.of(RecordingDeliverer.alwaysDelivering("http")),
                    ProcessorSettings.DEFAULT, new OutboxListener() {
                    }, executor, Clock.systemUTC()).drain();
            OutboxStats stats = app.inNewTransaction(() -> appStore.stats(Instant.now()));
            Instant later = Instant.now().plusSeconds(60);
            int purged = app.inNewTransaction(() -> appStore.purgeDelivered(later, later, 10));

            assertEquals(1, delivered);
            assertEquals(0, stats.pending());
            assertEquals(1, purged);
        }
    }

    // ---------------------------------------------------------------- helpers

    private void setTableComment(Connection connection, String comment) throws SQLException {
        String sql = store.dialect() instanceof PostgreSqlDialect
                ? "COMMENT ON TABLE outbox IS '" + comment + "'"
                : "ALTER TABLE outbox COMMENT = '" + comment + "'";
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private OutboxProcessor processor(RecordingDeliverer deliverer, ProcessorSettings settings, Clock clock) {
        return new OutboxProcessor(store, transactions, List.of(deliverer), settings, new OutboxListener() {
        }, executor, clock);
    }

    private int drainUntilNothingPending(OutboxProcessor processor) {
        return Await.drained(database, processor::drain, Duration.ofMinutes(3));
    }

    private Set<UUID> publishMany(int count, String deliveryType) {
        Set<UUID> ids = new HashSet<>();
        for (int start = 0; start < count; start += 1000) {
            int end = Math.min(count, start + 1000);
            int first = start;
            ids.addAll(tx(() -> {
                List<UUID> batch = new ArrayList<>();
                for (int i = first; i < end; i++) {
                    batch.add(publisher.publish(new OutboxMessage("test", "{\"n\":" + i + "}"), new TestDelivery(deliveryType)));
                }
                return batch;
            }));
        }
        assertEquals(count, ids.size());
        return ids;
    }

    private UUID publish(String payload, String deliveryType) {
        return tx(() -> publisher.publish(new OutboxMessage("test", payload), new TestDelivery(deliveryType)));
    }

    private UUID insert(String deliveryType, Instant due) {
        return tx(() -> store.insert(entry(deliveryType, due, null)));
    }

    /** Inserts an entry, then moves it to {@code status} at {@code at} (claimed at that time). */
    private UUID insertInState(String deliveryType, OutboxStatus status, Instant at, String key) {
        OutboxEntry entry = entry(deliveryType, at, key);
        return tx(() -> {
            UUID id = store.insert(entry);
            OutboxEntry claimed = store.claim(Set.of(deliveryType), at, 1000).stream()
                    .filter(candidate -> candidate.id().equals(id)).findFirst().orElseThrow();
            store.update(List.of(status == OutboxStatus.DELIVERED ? claimed.toDelivered(at)
                    : status == OutboxStatus.FAILED ? claimed.toFailed(at, "failed") : claimed));
            return id;
        });
    }

    private static OutboxEntry entry(String deliveryType, Instant at, String key) {
        OutboxMessage message = new OutboxMessage("test", "{}", key);
        return OutboxEntry.create(UUID.randomUUID(), message, new TestDelivery(deliveryType), at);
    }

    private OutboxEntry find(UUID id) {
        return tx(() -> store.find(id).orElseThrow());
    }

    private static List<UUID> ids(List<OutboxEntry> entries) {
        return entries.stream().map(OutboxEntry::id).toList();
    }

    private <T> T tx(Supplier<T> work) {
        return transactions.inNewTransaction(work);
    }

    private void sqlInCurrentTransaction(String sql) {
        try {
            transactions.withConnection(connection -> {
                try (Statement statement = connection.createStatement()) {
                    return statement.execute(sql);
                }
            });
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private void sql(String sql) {
        try (Connection connection = database.dataSource().getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static void assertMessageNames(String argument, Runnable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call::run);
        assertTrue(e.getMessage().contains(argument), "'" + e.getMessage() + "' should name " + argument);
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(30, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
