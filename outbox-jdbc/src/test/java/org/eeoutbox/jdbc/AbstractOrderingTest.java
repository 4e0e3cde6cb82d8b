package org.eeoutbox.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.RetryPolicy;
import org.eeoutbox.admin.ActionOutcome;
import org.eeoutbox.admin.BlockedKey;
import org.eeoutbox.admin.OutboxAdmin;
import org.eeoutbox.engine.OutboxListener;
import org.eeoutbox.engine.OutboxProcessor;
import org.eeoutbox.engine.ProcessorSettings;
import org.eeoutbox.engine.StoreOutboxAdmin;
import org.eeoutbox.engine.StoreOutboxPublisher;
import org.eeoutbox.spi.HeadFailurePolicy;
import org.eeoutbox.testkit.Await;
import org.eeoutbox.testkit.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The per-key ordering contract (issue 17, docs/ordering.md), written once and run against each
 * real database: sequence order is commit order, the claim returns heads only and neither takes
 * nor waits for other keys' locks, a failed head blocks or is skipped by policy.
 *
 * <p>{@value #DELIVERED_ROWS_PROPERTY} sets how many delivered keyed rows the plan check puts in
 * the table (default {@value #DEFAULT_DELIVERED_ROWS}; the 1,000,000 takes minutes).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
abstract class AbstractOrderingTest {

    /** The system property giving the number of delivered rows of the plan check. */
    static final String DELIVERED_ROWS_PROPERTY = "outbox.test.ordering.delivered-rows";
    private static final int DEFAULT_DELIVERED_ROWS = 20_000;

    private static final RetryPolicy NO_BACKOFF = new RetryPolicy(1000, Duration.ZERO, 1.0, Duration.ZERO, 0.0);

    private final ExecutorService executor = Executors.newCachedThreadPool();
    private TestDatabase database;
    private DataSourceTransactions transactions;
    private SqlDialect dialect;
    private JdbcOutboxStore store;
    private StoreOutboxPublisher publisher;

    /** Returns the real database to run against. */
    protected abstract TestDatabase database();

    @BeforeAll
    final void createSchema() throws SQLException {
        database = database();
        transactions = new DataSourceTransactions(database.dataSource());
        dialect = OutboxTables.recreate(database);
        store = new JdbcOutboxStore(transactions, dialect);
        publisher = publisher(store);
    }

    @BeforeEach
    final void emptyTables() {
        database.execute("DELETE FROM outbox");
        database.execute("DELETE FROM outbox_key_sequence");
    }

    @AfterAll
    final void stopExecutor() {
        executor.shutdownNow();
    }

    // ---------------------------------------------------------------- publish

    @Test
    final void concurrentPublishersOnOneKeyCommitInSequenceOrder() throws Exception {
        int publishers = 8;
        int perPublisher = 10;
        AtomicInteger lockOrder = new AtomicInteger();
        Map<Long, Integer> lockOrderBySeq = new ConcurrentHashMap<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> running = new ArrayList<>();
        for (int p = 0; p < publishers; p++) {
            running.add(executor.submit(() -> {
                start.await();
                for (int i = 0; i < perPublisher; i++) {
                    tx(() -> {
                        UUID id = publishKeyed("order-1", "{}");
                        // Still in the transaction, holding the key: a random pause lets another
                        // publisher overtake here unless the key's lock keeps it out until commit.
                        pause(ThreadLocalRandom.current().nextInt(3));
                        long seq = store.find(id).orElseThrow().orderingSeq();
                        lockOrderBySeq.put(seq, lockOrder.incrementAndGet());
                        return id;
                    });
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> publisher : running) {
            publisher.get(2, TimeUnit.MINUTES);
        }

        int total = publishers * perPublisher;
        List<Long> seqs = new ArrayList<>(lockOrderBySeq.keySet());
        Collections.sort(seqs);
        assertEquals(total, seqs.size());
        assertEquals(1L, seqs.get(0));
        assertEquals((long) total, seqs.get(total - 1), "no gaps without rollbacks");
        for (int i = 0; i < total; i++) {
            assertEquals(i + 1, lockOrderBySeq.get(seqs.get(i)),
                    "the transaction holding sequence " + seqs.get(i) + " ran its commit step in sequence order");
        }
    }

    @Test
    final void aPublisherWaitsOnlyForTransactionsOfItsOwnKey() throws Exception {
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Future<UUID> first = executor.submit(() -> tx(() -> {
            UUID id = publishKeyed("order-1", "first");
            holding.countDown();
            Await.open(release);
            return id;
        }));
        assertTrue(holding.await(30, TimeUnit.SECONDS));
        Future<UUID> sameKey = executor.submit(() -> tx(() -> publishKeyed("order-1", "second")));
        try {
            UUID otherKey = executor.submit(() -> tx(() -> publishKeyed("order-2", "other")))
                    .get(20, TimeUnit.SECONDS);
            assertEquals(1L, seqOf(otherKey), "another key is not held up");
            pause(300);
            assertTrue(!sameKey.isDone(), "the same key waits for the open transaction");
        } finally {
            release.countDown();
        }
        assertEquals(1L, seqOf(first.get(30, TimeUnit.SECONDS)));
        assertEquals(2L, seqOf(sameKey.get(30, TimeUnit.SECONDS)));
    }

    @Test
    final void hostileOrderingKeysAreRefusedAtPublishAndNothingIsWritten() {
        for (Supplier<OutboxMessage> hostile : List.<Supplier<OutboxMessage>>of(
                () -> new OutboxMessage("t", "{}").withOrderingKey("  "),
                () -> new OutboxMessage("t", "{}").withOrderingKey("k".repeat(256)),
                () -> new OutboxMessage("t", "{}").withOrderingKey("order-\uD83D"))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> tx(() -> publisher.publish(hostile.get(), new TestDelivery("http"))));
            assertTrue(e.getMessage().startsWith("orderingKey"), e.getMessage());
        }
        assertEquals(0, database.queryForLong("SELECT COUNT(*) FROM outbox"));
        assertEquals(0, database.queryForLong("SELECT COUNT(*) FROM outbox_key_sequence"));
    }

    @Test
    final void aDuplicateDeduplicationKeyLeavesAGapThatHoldsNothingUp() {
        OutboxMessage keyed = new OutboxMessage("t", "{}").withOrderingKey("order-1").withDeduplicationKey("d-1");
        UUID first = tx(() -> publisher.publish(keyed, new TestDelivery("http")));
        assertEquals(first, tx(() -> publisher.publish(keyed, new TestDelivery("http"))));
        UUID third = tx(() -> publishKeyed("order-1", "third"));
        assertEquals(3L, seqOf(third), "the duplicate used up sequence 2");

        assertEquals(List.of(first), tx(() -> ids(store.claim(Set.of("http"), Instant.now(), 10))));
        deliverAll(store, entry -> DeliveryResult.delivered());
        assertEquals(OutboxStatus.DELIVERED, find(third).status());
    }

    // ---------------------------------------------------------------- claim

    @Test
    final void aClaimReturnsOnlyEachKeysHead() {
        List<UUID> a = List.of(publishKeyedTx("a", "1"), publishKeyedTx("a", "2"), publishKeyedTx("a", "3"));
        UUID b1 = publishKeyedTx("b", "1");
        UUID unkeyed = tx(() -> publisher.publish(new OutboxMessage("t", "{}"), new TestDelivery("http")));

        List<OutboxEntry> claimed = tx(() -> store.claim(Set.of("http"), Instant.now(), 10));

        assertEquals(Set.of(a.get(0), b1, unkeyed), new HashSet<>(ids(claimed)));
        OutboxEntry head = claimed.stream().filter(e -> e.id().equals(a.get(0))).findFirst().orElseThrow();
        assertEquals("a", head.orderingKey());
        assertEquals(1L, head.orderingSeq());
        assertEquals(find(a.get(0)), head, "the claim reads what find reads");
    }

    @Test
    final void aClaimNeitherReturnsTheSuccessorOfAHeadLockedElsewhereNorWaits() throws Exception {
        UUID head = publishKeyedTx("order-1", "head");
        UUID successor = publishKeyedTx("order-1", "successor");
        UUID otherKey = publishKeyedTx("order-2", "other");
        UUID unkeyed = tx(() -> publisher.publish(new OutboxMessage("t", "{}"), new TestDelivery("http")));
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Future<List<UUID>> first = executor.submit(() -> tx(() -> {
            List<UUID> claimed = ids(store.claim(Set.of("http"), Instant.now(), 1));
            holding.countDown();
            Await.open(release);
            return claimed;
        }));
        assertTrue(holding.await(30, TimeUnit.SECONDS));
        List<UUID> second;
        try {
            // A locking read that locked the subquery's rows would skip the locked head as if it
            // were gone and return its successor; one that waited for it would time out here.
            second = executor.submit(() -> tx(() -> ids(store.claim(Set.of("http"), Instant.now(), 10))))
                    .get(20, TimeUnit.SECONDS);
        } finally {
            release.countDown();
        }

        assertEquals(List.of(head), first.get(30, TimeUnit.SECONDS));
        assertEquals(Set.of(otherKey, unkeyed), new HashSet<>(second));
        assertTrue(!second.contains(successor));
    }

    @Test
    final void aClaimLeavesTheEntriesCommittedAfterItsSnapshot() throws SQLException {
        // MySQL and MariaDB read a locking claim's rows as last committed but its head check in
        // the statement's snapshot: to a claim that began before a key's head and successor were
        // committed, both are rows and neither is in the check, so both looked like heads. READ
        // COMMITTED takes the snapshot as the statement starts, so the window is the claim's scan
        // (CI caught the successor of a head claimed meanwhile); REPEATABLE READ keeps the
        // snapshot of the transaction's first read, so the test can commit in between.
        UUID head;
        List<UUID> claimed;
        try (Connection late = database.dataSource().getConnection()) {
            late.setAutoCommit(false);
            late.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try {
                try (Statement snapshot = late.createStatement()) {
                    snapshot.executeQuery("SELECT COUNT(*) FROM outbox").close();
                }
                head = publishKeyedTx("order-1", "head");
                publishKeyedTx("order-1", "successor");
                JdbcOutboxStore lateStore = new JdbcOutboxStore(new ConnectionProvider() {
                    @Override
                    public <T> T withConnection(SqlFunction<T> work) throws SQLException {
                        return work.apply(late);
                    }
                }, dialect);

                claimed = ids(lateStore.claim(Set.of("http"), Instant.now(), 10));
            } finally {
                late.rollback();
                late.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
                late.setAutoCommit(true);
            }
        }

        assertEquals(List.of(), claimed);
        assertEquals(List.of(head), tx(() -> ids(store.claim(Set.of("http"), Instant.now(), 10))), "the next claim");
    }

    @Test
    final void fourWorkersNeverHoldTwoEntriesOfOneKey() throws Exception {
        int keys = 40;
        int perKey = 5;
        for (int m = 0; m < perKey; m++) {
            int message = m;
            tx(() -> {
                for (int k = 0; k < keys; k++) {
                    publishKeyed("key-" + k, "{\"m\":" + message + "}");
                }
                return null;
            });
        }
        List<String> violations = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger delivered = new AtomicInteger();
        List<Future<?>> workers = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            workers.add(executor.submit(() -> {
                while (delivered.get() < keys * perKey) {
                    delivered.addAndGet(claimCheckingOrderAndDeliver(7, true, violations));
                }
                return null;
            }));
        }
        for (Future<?> worker : workers) {
            worker.get(3, TimeUnit.MINUTES);
        }

        assertEquals(List.of(), violations);
        assertEquals(keys * perKey, database.queryForLong("SELECT COUNT(*) FROM outbox WHERE status = 'DELIVERED'"));
    }

    @Test
    final void claimsRacingPublishersOfTheSameKeysNeverHoldTwoEntriesOfOneKey() throws Exception {
        // The test above claims a backlog published beforehand; here keys get new entries while
        // two workers claim them: a head check that missed a just-committed predecessor shows.
        int keys = 3;
        int perPublisher = 150;
        int publishers = 4;
        int total = publishers * perPublisher;
        List<String> violations = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger delivered = new AtomicInteger();
        List<Future<?>> running = new ArrayList<>();
        for (int p = 0; p < publishers; p++) {
            running.add(executor.submit(() -> {
                for (int m = 0; m < perPublisher; m++) {
                    publishKeyedTx("key-" + ThreadLocalRandom.current().nextInt(keys), "{}");
                }
                return null;
            }));
        }
        for (int w = 0; w < 2; w++) {
            running.add(executor.submit(() -> {
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
                while (delivered.get() < total && System.nanoTime() < deadline) {
                    delivered.addAndGet(claimCheckingOrderAndDeliver(20, false, violations));
                }
                return null;
            }));
        }
        for (Future<?> task : running) {
            task.get(3, TimeUnit.MINUTES);
        }

        assertEquals(List.of(), violations);
        assertEquals(total, delivered.get());
    }

    @Test
    final void theHeadCheckUsesTheOrderingIndexAmongManyDeliveredRows() throws SQLException {
        int rows = Integer.getInteger(DELIVERED_ROWS_PROPERTY, DEFAULT_DELIVERED_ROWS);
        fillDelivered(rows);
        publishKeyedTx("order-1", "head");
        publishKeyedTx("order-1", "successor");
        database.execute(dialect instanceof PostgreSqlDialect ? "ANALYZE outbox" : "ANALYZE TABLE outbox");

        String plan = explainClaim();

        assertTrue(plan.contains("outbox_ordering_idx"), plan);
        assertTrue(plan.contains("outbox_claim_idx"), plan);
        for (String step : plan.split("\n")) {
            // MySQL and MariaDB: each head check looks up ordering key and status (2 columns, 1089
            // bytes), so it reads only the key's pending or failed entries, not its history.
            assertTrue(!step.contains("DEPENDENT SUBQUERY earlier") || step.contains("outbox_ordering_idx 1089"), plan);
        }
        // MySQL and MariaDB: the snapshot test (aClaimLeavesTheEntriesCommittedAfterItsSnapshot) is
        // one primary key probe per row, in the snapshot: neither a join the locking read would
        // read as last committed nor a materialized copy of the table's ids.
        assertTrue(dialect instanceof PostgreSqlDialect || plan.lines().anyMatch(
                step -> step.matches("\\d+ DEPENDENT SUBQUERY seen (null )?eq_ref PRIMARY .*")), plan);
        assertEquals(1, tx(() -> store.claim(Set.of("http"), Instant.now(), 10)).size());
    }

    // ---------------------------------------------------------------- failed heads

    /** The case: one key of 500 stops on its failed head, the other 499 finish. */
    @Test
    final void underBlockAFailedHeadStopsItsKeyUntilReplayedThenTheKeyGoesOnInOrder() {
        List<UUID> blocked = List.of(publishKeyedTx("order-1", "poison"), publishKeyedTx("order-1", "2"),
                publishKeyedTx("order-1", "3"));
        Map<String, List<UUID>> others = new HashMap<>();
        tx(() -> {
            for (int k = 2; k <= 500; k++) {
                List<UUID> key = others.computeIfAbsent("order-" + k, name -> new ArrayList<>());
                key.add(publishKeyed("order-" + k, "1"));
                key.add(publishKeyed("order-" + k, "2"));
            }
            return null;
        });
        List<UUID> arrivals = Collections.synchronizedList(new ArrayList<>());
        Map<String, List<UUID>> othersArrivals = new ConcurrentHashMap<>();
        Function<OutboxEntry, DeliveryResult> poisonFails = entry -> {
            if (entry.payload().equals("poison")) {
                return DeliveryResult.permanent("HTTP 400");
            }
            othersArrivals.computeIfAbsent(entry.orderingKey(), key -> Collections.synchronizedList(new ArrayList<>()))
                    .add(entry.id());
            return DeliveryResult.delivered();
        };

        deliverAll(store, poisonFails);

        assertEquals(OutboxStatus.FAILED, find(blocked.get(0)).status());
        assertEquals(OutboxStatus.PENDING, find(blocked.get(1)).status());
        assertEquals(others, othersArrivals, "the other 499 keys finished, each in order");
        assertEquals(1, tx(() -> store.stats(Instant.now())).blockedKeys());
        OutboxAdmin admin = admin(store);
        List<BlockedKey> keys = admin.blockedKeys(10);
        assertEquals(1, keys.size());
        assertEquals("order-1", keys.get(0).orderingKey());
        assertEquals(blocked.get(0), keys.get(0).headId());
        assertEquals("HTTP 400", keys.get(0).lastError());

        assertEquals(ActionOutcome.DONE, admin.replay(blocked.get(0)));
        arrivals.clear();
        deliverAll(store, entry -> {
            arrivals.add(entry.id());
            return DeliveryResult.delivered();
        });

        assertEquals(blocked, arrivals);
        assertEquals(0, tx(() -> store.stats(Instant.now())).blockedKeys());
        assertEquals(List.of(), admin.blockedKeys(10));
    }

    @Test
    final void underBlockDiscardingTheFailedHeadSkipsIt() {
        List<UUID> key = List.of(publishKeyedTx("order-1", "poison"), publishKeyedTx("order-1", "2"));
        deliverAll(store, entry -> entry.payload().equals("poison") ? DeliveryResult.permanent("HTTP 400")
                : DeliveryResult.delivered());
        assertEquals(OutboxStatus.PENDING, find(key.get(1)).status());

        assertEquals(ActionOutcome.DONE, admin(store).discard(key.get(0)));
        deliverAll(store, entry -> DeliveryResult.delivered());

        assertEquals(OutboxStatus.DELIVERED, find(key.get(1)).status());
    }

    @Test
    final void underSkipAFailedHeadLetsItsKeyGoOn() {
        JdbcOutboxStore skipping = new JdbcOutboxStore(transactions, dialect, HeadFailurePolicy.SKIP);
        List<UUID> key = List.of(publishKeyedTx("order-1", "poison"), publishKeyedTx("order-1", "2"),
                publishKeyedTx("order-1", "3"));
        List<UUID> arrivals = Collections.synchronizedList(new ArrayList<>());

        deliverAll(skipping, entry -> {
            if (entry.payload().equals("poison")) {
                return DeliveryResult.permanent("HTTP 400");
            }
            arrivals.add(entry.id());
            return DeliveryResult.delivered();
        });

        assertEquals(OutboxStatus.FAILED, find(key.get(0)).status());
        assertEquals(key.subList(1, 3), arrivals);
        assertEquals(0, tx(() -> skipping.stats(Instant.now())).blockedKeys());
        assertEquals(List.of(), admin(skipping).blockedKeys(10));
    }

    // ---------------------------------------------------------------- end to end

    @Test
    final void manyKeysRandomRetriableFailuresAndFourWorkersKeepEachKeysOrder() throws Exception {
        int keys = 60;
        int perKey = 8;
        List<Future<?>> publishers = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            publishers.add(executor.submit(() -> {
                for (int m = 0; m < keys * perKey / 4; m++) {
                    String key = "key-" + ThreadLocalRandom.current().nextInt(keys);
                    tx(() -> publishKeyed(key, "{}"));
                }
                return null;
            }));
        }
        for (Future<?> publisher : publishers) {
            publisher.get(2, TimeUnit.MINUTES);
        }
        Map<String, List<Long>> firstArrivals = new ConcurrentHashMap<>();
        Set<UUID> arrived = ConcurrentHashMap.newKeySet();
        RecordingDeliverer flaky = new RecordingDeliverer("http", entry -> {
            if (ThreadLocalRandom.current().nextInt(5) == 0) {
                return DeliveryResult.retriable("HTTP 503");
            }
            if (arrived.add(entry.id())) {
                firstArrivals.computeIfAbsent(entry.orderingKey(), k -> Collections.synchronizedList(new ArrayList<>()))
                        .add(entry.orderingSeq());
            }
            return DeliveryResult.delivered();
        });
        OutboxProcessor processor = new OutboxProcessor(store, transactions, List.of(flaky),
                ProcessorSettings.DEFAULT.withRetryPolicy(NO_BACKOFF).withConcurrency(4).withBatchSize(20),
                new OutboxListener() {
                }, executor, Clock.systemUTC());

        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (database.queryForLong("SELECT COUNT(*) FROM outbox WHERE status <> 'DELIVERED'") > 0) {
            assertTrue(System.nanoTime() < deadline, "drained in time");
            processor.drain();
        }

        assertEquals(keys * perKey, arrived.size(), "nothing lost");
        Map<String, List<Long>> expected = new HashMap<>();
        try (Connection connection = database.dataSource().getConnection();
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(
                     "SELECT ordering_key, ordering_seq FROM outbox ORDER BY ordering_key, ordering_seq")) {
            while (rows.next()) {
                expected.computeIfAbsent(rows.getString(1), k -> new ArrayList<>()).add(rows.getLong(2));
            }
        }
        assertEquals(expected, firstArrivals, "each key's first arrivals in sequence order");
    }

    // ---------------------------------------------------------------- helpers

    private StoreOutboxPublisher publisher(JdbcOutboxStore target) {
        return new StoreOutboxPublisher(target, StoreOutboxPublisher.DEFAULT_MAX_PAYLOAD_BYTES, Clock.systemUTC());
    }

    private OutboxAdmin admin(JdbcOutboxStore target) {
        return new StoreOutboxAdmin(new JdbcOutboxAdminStore(transactions, dialect, target.headFailurePolicy()),
                target, transactions, Clock.systemUTC(), () -> "operator-1", action -> {
                });
    }

    /** Claims and delivers with {@code outcome} until a claim comes back empty. */
    private void deliverAll(JdbcOutboxStore target, Function<OutboxEntry, DeliveryResult> outcome) {
        OutboxProcessor processor = new OutboxProcessor(target, transactions,
                List.of(new RecordingDeliverer("http", outcome)), ProcessorSettings.DEFAULT.withBatchSize(10),
                new OutboxListener() {
                }, executor, Clock.systemUTC());
        while (processor.drain() > 0) {
            // each pass delivers the heads the previous one released
        }
    }

    private UUID publishKeyed(String key, String payload) {
        return publisher.publish(new OutboxMessage("t", payload).withOrderingKey(key), new TestDelivery("http"));
    }

    private UUID publishKeyedTx(String key, String payload) {
        return tx(() -> publishKeyed(key, payload));
    }

    private long seqOf(UUID id) {
        return tx(() -> store.find(id).orElseThrow().orderingSeq());
    }

    private OutboxEntry find(UUID id) {
        return tx(() -> store.find(id).orElseThrow());
    }

    /**
     * Claims up to {@code limit} entries in one transaction, adds to {@code violations} each claimed
     * entry whose key is held by another entry of the claim or by an undelivered predecessor, and
     * marks them delivered (after a short hold when {@code hold}); returns how many it claimed.
     */
    private int claimCheckingOrderAndDeliver(int limit, boolean hold, List<String> violations) {
        return tx(() -> {
            List<OutboxEntry> claimed = store.claim(Set.of("http"), Instant.now(), limit);
            Set<String> keysInClaim = new HashSet<>();
            List<OutboxEntry> done = new ArrayList<>();
            for (OutboxEntry entry : claimed) {
                if (!keysInClaim.add(entry.orderingKey())) {
                    violations.add("two entries of " + entry.orderingKey() + " in one claim");
                }
                long undelivered = countUndeliveredBefore(entry);
                if (undelivered != 0) {
                    violations.add(entry.orderingKey() + " seq " + entry.orderingSeq() + " claimed while "
                            + undelivered + " earlier entries were not delivered");
                }
                done.add(entry.toDelivered(Instant.now()));
            }
            if (hold) {
                pause(claimed.isEmpty() ? 5 : 2);
            }
            store.update(done);
            return done.size();
        });
    }

    /** Reads, outside the claiming transaction, how many earlier entries of the entry's key are not delivered. */
    private long countUndeliveredBefore(OutboxEntry entry) {
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement statement = connection.prepareStatement("SELECT COUNT(*) FROM outbox "
                     + "WHERE ordering_key = ? AND ordering_seq < ? AND status <> 'DELIVERED'")) {
            statement.setString(1, entry.orderingKey());
            statement.setLong(2, entry.orderingSeq());
            try (ResultSet resultSet = statement.executeQuery()) {
                resultSet.next();
                return resultSet.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Fills the table with {@code rows} delivered entries over 1,000 keys: up to 5,000 published,
     * then copied (new ids, later sequences) doubling the table until it holds {@code rows}.
     */
    private void fillDelivered(int rows) {
        int published = Math.min(rows, 5_000);
        tx(() -> {
            for (int i = 0; i < published; i++) {
                publishKeyed("delivered-" + (i % 1_000), "{}");
            }
            return null;
        });
        database.execute("UPDATE outbox SET status = 'DELIVERED', delivered_at = updated_at");
        String newId = dialect instanceof PostgreSqlDialect ? "gen_random_uuid()" : "UNHEX(REPLACE(UUID(), '-', ''))";
        for (long held = published; held < rows; held *= 2) {
            database.execute("""
                    INSERT INTO outbox (id, message_type, payload, delivery_type, delivery_metadata, status, attempts,
                                        next_attempt_at, created_at, updated_at, delivered_at,
                                        ordering_key, ordering_seq)
                    SELECT %s, message_type, payload, delivery_type, delivery_metadata, status, attempts,
                           next_attempt_at, created_at, updated_at, delivered_at, ordering_key, ordering_seq + %d
                    FROM outbox LIMIT %d""".formatted(newId, held, Math.min(held, rows - held)));
        }
    }

    private String explainClaim() throws SQLException {
        String claim = dialect.claimSql(1, dialect.claimColumns(), HeadFailurePolicy.BLOCK, false, 10);
        StringBuilder plan = new StringBuilder();
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement statement = connection.prepareStatement("EXPLAIN " + claim)) {
            dialect.setInstant(statement, 1, Instant.now());
            dialect.bindStrings(statement, 2, List.of("http"));
            try (ResultSet resultSet = statement.executeQuery()) {
                int columns = resultSet.getMetaData().getColumnCount();
                while (resultSet.next()) {
                    for (int c = 1; c <= columns; c++) {
                        plan.append(resultSet.getString(c)).append(' ');
                    }
                    plan.append('\n');
                }
            }
        }
        return plan.toString();
    }

    private static List<UUID> ids(List<OutboxEntry> entries) {
        return entries.stream().map(OutboxEntry::id).toList();
    }

    private <T> T tx(Supplier<T> work) {
        return transactions.inNewTransaction(work);
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
