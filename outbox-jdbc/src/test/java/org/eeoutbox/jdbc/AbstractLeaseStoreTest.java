package org.eeoutbox.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.admin.EntryFilter;
import org.eeoutbox.engine.LeaseSettings;
import org.eeoutbox.engine.OutboxListener;
import org.eeoutbox.engine.OutboxProcessor;
import org.eeoutbox.engine.ProcessorSettings;
import org.eeoutbox.spi.LeasedEntry;
import org.eeoutbox.testkit.Await;
import org.eeoutbox.testkit.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The lease-mode part of the store contract (issue 16), run unchanged against each real database:
 * claims that stamp a lease in their own transaction, completions fenced by the lease's token,
 * the database's clock for expiry, and the other statements skipping leased entries.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
abstract class AbstractLeaseStoreTest {

    private static final Set<String> HTTP = Set.of("http");
    private static final Duration HOUR = Duration.ofHours(1);

    private final ExecutorService executor = Executors.newCachedThreadPool();
    private TestDatabase database;
    private DataSourceTransactions transactions;
    private JdbcOutboxStore store;

    /** Returns the real database to run against. */
    protected abstract TestDatabase database();

    @BeforeAll
    final void createSchema() throws SQLException {
        database = database();
        transactions = new DataSourceTransactions(database.dataSource());
        store = new JdbcOutboxStore(transactions, OutboxTables.recreate(database));
    }

    @BeforeEach
    final void emptyTable() {
        database.execute("DELETE FROM outbox");
    }

    @AfterAll
    final void stopExecutor() {
        executor.shutdownNow();
    }

    @Test
    final void aLeaseHidesItsEntriesFromEveryClaimUntilItExpires() {
        Instant now = now();
        UUID first = insert(now.minusSeconds(2));
        UUID second = insert(now.minusSeconds(1));

        List<LeasedEntry> leased = tx(() -> store.lease(HTTP, now, 1, "a", HOUR));

        assertEquals(List.of(first), ids(leased));
        assertEquals(1, leased.get(0).token());
        assertEquals(List.of(second), ids(tx(() -> store.lease(HTTP, now, 10, "b", HOUR))));
        assertEquals(List.of(), tx(() -> store.lease(HTTP, now, 10, "c", HOUR)));
        assertEquals(List.of(), tx(() -> store.claim(HTTP, now, 10)), "the lock-mode claim skips leased entries");
        assertEquals(1, database.queryForLong("SELECT COUNT(*) FROM outbox WHERE lease_owner = 'a'"));
    }

    @Test
    final void afterTheLeaseExpiresAnotherWorkerClaimsTheEntryAndTheFirstCompletionIsRejected() throws Exception {
        Instant now = now();
        UUID id = insert(now.minusSeconds(1));
        LeasedEntry stale = tx(() -> store.lease(HTTP, now, 10, "a", Duration.ofMillis(300))).get(0);
        Thread.sleep(600);

        LeasedEntry fresh = tx(() -> store.lease(HTTP, now, 10, "b", HOUR)).get(0);
        assertEquals(id, fresh.entry().id());
        assertEquals(stale.token() + 1, fresh.token());

        Set<UUID> lost = tx(() -> store.completeLeased(List.of(stale.with(stale.entry().toDelivered(now())))));
        assertEquals(Set.of(id), lost);
        OutboxEntry untouched = find(id);
        assertEquals(OutboxStatus.PENDING, untouched.status());
        assertEquals(2, untouched.attempts(), "both claims counted their attempt");
        assertEquals(1, database.queryForLong("SELECT COUNT(*) FROM outbox WHERE lease_owner = 'b'"));

        assertEquals(Set.of(), tx(() -> store.completeLeased(List.of(fresh.with(
                fresh.entry().toRetry(now(), now().plusSeconds(60), "HTTP 503"))))));
        OutboxEntry retried = find(id);
        assertEquals(OutboxStatus.PENDING, retried.status());
        assertEquals("HTTP 503", retried.lastError());
        assertEquals(2, retried.attempts());
        assertEquals(1, database.queryForLong("SELECT COUNT(*) FROM outbox_attempt"));
        assertEquals(0, database.queryForLong("SELECT COUNT(*) FROM outbox WHERE lease_owner IS NOT NULL "
                + "OR lease_expires_at IS NOT NULL"), "a completion releases the lease");
        assertEquals(2, database.queryForLong("SELECT lease_token FROM outbox"), "the token never goes back");
    }

    @Test
    final void attemptsAreCountedAtTheClaimAndNotAgainAtTheCompletion() {
        UUID id = insert(now().minusSeconds(1));

        LeasedEntry first = tx(() -> store.lease(HTTP, now(), 10, "a", HOUR)).get(0);
        assertEquals(0, first.entry().attempts(), "a leased entry holds its attempts before the claim");
        assertEquals(1, database.queryForLong("SELECT attempts FROM outbox"), "counted at the claim");
        tx(() -> store.completeLeased(List.of(first.with(first.entry().toRetry(now(), now(), "timeout")))));
        assertEquals(1, find(id).attempts());

        LeasedEntry postponed = tx(() -> store.lease(HTTP, now(), 10, "a", HOUR)).get(0);
        assertEquals(2, database.queryForLong("SELECT attempts FROM outbox"));
        tx(() -> store.completeLeased(List.of(postponed.with(
                postponed.entry().toPostponed(now(), now(), "producer closed")))));
        assertEquals(1, find(id).attempts(), "a postponement gives back the attempt the claim counted");

        LeasedEntry last = tx(() -> store.lease(HTTP, now(), 10, "a", HOUR)).get(0);
        assertEquals(1, last.entry().attempts());
        tx(() -> store.completeLeased(List.of(last.with(last.entry().toDelivered(now())))));
        OutboxEntry delivered = find(id);
        assertEquals(OutboxStatus.DELIVERED, delivered.status());
        assertEquals(2, delivered.attempts(), "the same count as lock mode: two attempts made");
    }

    @Test
    final void leaseExpiryIsMeasuredOnTheDatabaseClockNeverTheJvms() throws SQLException {
        insert(now().minusSeconds(1));
        Instant jvmAnHourAhead = now().plus(HOUR);

        tx(() -> store.lease(HTTP, jvmAnHourAhead, 10, "skewed", HOUR));

        assertEquals(List.of(), tx(() -> store.lease(HTTP, now().plus(Duration.ofHours(3)), 10, "b", HOUR)),
                "a JVM three hours ahead must not see an expired lease");
        assertEquals(1, countExpiringBetween(Duration.ofMinutes(59), Duration.ofMinutes(61)),
                "the expiry is the database's now plus the lease, whatever the JVM's clock said");
    }

    @Test
    final void adminStatementsTreatLeasedEntriesAsHeld() {
        UUID leasedId = insert(now().minusSeconds(2));
        UUID freeId = insert(now().minusSeconds(1));
        tx(() -> store.lease(HTTP, now(), 1, "a", HOUR));
        JdbcOutboxAdminStore admin = new JdbcOutboxAdminStore(transactions, store.dialect());

        assertEquals(Optional.empty(), tx(() -> admin.lock(leasedId)));
        assertEquals(Optional.of(OutboxStatus.PENDING), tx(() -> admin.status(leasedId)));
        assertEquals(Optional.of(OutboxStatus.PENDING), tx(() -> admin.lock(freeId)));
        assertEquals(List.of(freeId), tx(() -> admin.lockMatching(EntryFilter.ANY, null, 10)));
    }

    @Test
    final void aLeasedEntryIsNeverPurgedAndItsDeliveryIsPurgedAfterRetention() {
        UUID id = insert(now().minusSeconds(1));
        LeasedEntry leased = tx(() -> store.lease(HTTP, now(), 10, "a", HOUR)).get(0);
        Instant future = now().plus(Duration.ofDays(30));

        assertEquals(0, (int) tx(() -> store.purgeDelivered(future, future, 100)));
        tx(() -> store.completeLeased(List.of(leased.with(leased.entry().toDelivered(now())))));
        assertEquals(1, (int) tx(() -> store.purgeDelivered(future, future, 100)));
        assertEquals(Optional.empty(), tx(() -> store.find(id)));
    }

    @Test
    final void fourLeaseModeWorkersDrainTwoThousandEntriesEachExactlyOnce() {
        Instant due = now().minusSeconds(1);
        tx(() -> {
            for (int i = 0; i < 2000; i++) {
                store.insert(entry(due));
            }
            return null;
        });
        RecordingDeliverer deliverer = RecordingDeliverer.alwaysDelivering("http");
        OutboxProcessor processor = new OutboxProcessor(store, transactions, List.of(deliverer),
                ProcessorSettings.DEFAULT.withConcurrency(4), new OutboxListener() {
                }, executor, Clock.systemUTC(), new LeaseSettings(HTTP, HOUR, "lease-test"));

        Await.drained(database, processor::drain, Duration.ofMinutes(3));

        assertEquals(2000, deliverer.successes.size());
        assertTrue(deliverer.attempts.values().stream().allMatch(count -> count.get() == 1),
                "no entry delivered twice");
        assertEquals(2000, database.queryForLong(
                "SELECT COUNT(*) FROM outbox WHERE status = 'DELIVERED' AND attempts = 1 AND lease_owner IS NULL"));
    }

    @Test
    final void aVersionOneTableHoldingEntriesIsUpgradedAndThenLeased() throws SQLException {
        OutboxTables.recreateAtVersionOne(database, store.dialect());
        UUID id = OutboxTables.insertAtVersionOne(database, store.dialect(), "http", "{}", now().minusSeconds(1));
        try (Connection connection = database.dataSource().getConnection()) {
            OutboxSchema.verify(connection, store.dialect(), true);
        }

        LeasedEntry leased = tx(() -> store.lease(HTTP, now(), 10, "a", HOUR)).get(0);
        assertEquals(id, leased.entry().id());
        assertEquals(1, leased.token(), "an upgraded row starts at token 0");
        assertEquals(Set.of(), tx(() -> store.completeLeased(List.of(leased.with(leased.entry().toDelivered(now()))))));
        assertEquals(OutboxStatus.DELIVERED, find(id).status());
        assertNull(find(id).lastError());
    }

    /** Counts the rows whose lease ends between {@code from} and {@code to} after the database's now. */
    private long countExpiringBetween(Duration from, Duration to) throws SQLException {
        SqlDialect dialect = store.dialect();
        String sql = "SELECT COUNT(*) FROM outbox WHERE lease_expires_at > " + dialect.databaseNowPlusMicros()
                + " AND lease_expires_at < " + dialect.databaseNowPlusMicros();
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setLong(1, from.toNanos() / 1_000L);
            statement.setLong(2, to.toNanos() / 1_000L);
            try (ResultSet resultSet = statement.executeQuery()) {
                resultSet.next();
                return resultSet.getLong(1);
            }
        }
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }

    private UUID insert(Instant due) {
        return tx(() -> store.insert(entry(due)));
    }

    private static OutboxEntry entry(Instant due) {
        return OutboxEntry.create(UUID.randomUUID(), new OutboxMessage("test", "{}"), new TestDelivery("http"), due);
    }

    private OutboxEntry find(UUID id) {
        return tx(() -> store.find(id).orElseThrow());
    }

    private static List<UUID> ids(List<LeasedEntry> leased) {
        return leased.stream().map(lease -> lease.entry().id()).toList();
    }

    private <T> T tx(Supplier<T> work) {
        return transactions.inNewTransaction(work);
    }
}
