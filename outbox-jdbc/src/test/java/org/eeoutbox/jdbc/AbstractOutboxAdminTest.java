package org.eeoutbox.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
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
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.admin.ActionOutcome;
import org.eeoutbox.admin.AdminAction;
import org.eeoutbox.admin.BulkRequest;
import org.eeoutbox.admin.BulkResult;
import org.eeoutbox.admin.EntryDetails;
import org.eeoutbox.admin.EntryFilter;
import org.eeoutbox.admin.EntryPage;
import org.eeoutbox.admin.EntryView;
import org.eeoutbox.admin.FailedAttempt;
import org.eeoutbox.admin.OutboxAdmin;
import org.eeoutbox.admin.OutboxOverview;
import org.eeoutbox.admin.PageRequest;
import org.eeoutbox.engine.OutboxPurger;
import org.eeoutbox.engine.PurgerSettings;
import org.eeoutbox.engine.StoreOutboxAdmin;
import org.eeoutbox.engine.StoreOutboxPublisher;
import org.eeoutbox.spi.OutboxAdminStore;
import org.eeoutbox.spi.TransactionRunner;
import org.eeoutbox.testkit.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The contract of the operations API ({@link StoreOutboxAdmin} on {@link JdbcOutboxAdminStore}),
 * written once and run unchanged against each real database: a subclass supplies only the
 * database. Test methods are final so a database cannot weaken a case.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
abstract class AbstractOutboxAdminTest {

    /** How long a call that must not wait for a lock may take at most, with a loaded machine's slack. */
    private static final Duration AT_ONCE = Duration.ofSeconds(2);

    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<AdminAction> audited = new CopyOnWriteArrayList<>();
    private TestDatabase database;
    private DataSourceTransactions transactions;
    private JdbcOutboxStore store;
    private JdbcOutboxAdminStore adminStore;
    private StoreOutboxPublisher publisher;
    private OutboxAdmin admin;

    /** Returns the real database to run against. */
    protected abstract TestDatabase database();

    @BeforeAll
    final void createSchema() throws SQLException {
        database = database();
        transactions = new DataSourceTransactions(database.dataSource());
        SqlDialect dialect = OutboxTables.recreate(database);
        store = new JdbcOutboxStore(transactions, dialect);
        adminStore = new JdbcOutboxAdminStore(transactions, dialect);
        publisher = new StoreOutboxPublisher(store, StoreOutboxPublisher.DEFAULT_MAX_PAYLOAD_BYTES, Clock.systemUTC());
        admin = admin(transactions);
    }

    @BeforeEach
    final void emptyTables() {
        sql("DELETE FROM outbox");
        sql("DELETE FROM outbox_pause");
        audited.clear();
    }

    @AfterAll
    final void stopExecutor() {
        executor.shutdownNow();
    }

    // ---------------------------------------------------------------- list and get

    @Test
    final void listPagesNewestFirstWithoutRepeatOrGapWhileEntriesArePublished() {
        List<UUID> existing = new ArrayList<>();
        for (int i = 0; i < 23; i++) {
            existing.add(publish("http"));
        }
        List<UUID> seen = new ArrayList<>();
        PageRequest page = new PageRequest(null, 5, false);
        int pages = 0;
        while (page != null) {
            EntryPage result = admin.list(EntryFilter.ANY, page);
            result.entries().forEach(entry -> seen.add(entry.id()));
            result.entries().forEach(entry -> assertNull(entry.payload(), "no payload unless asked for"));
            publish("http");
            publish("http");
            page = page.next(result);
            pages++;
        }
        // Newest first to the millisecond of the time-ordered ids; within one, in id order.
        List<UUID> newestFirst = new ArrayList<>(existing);
        newestFirst.sort(java.util.Comparator.reverseOrder());
        assertEquals(newestFirst, seen, "every entry that existed at the first page, once, newest first");
        assertEquals(5, pages, "pages of 5, 5, 5, 5 and 3");
    }

    @Test
    final void listFindsEntriesWhilePublishersInsertConcurrently() throws Exception {
        Set<UUID> existing = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            existing.add(publish("http"));
        }
        CountDownLatch done = new CountDownLatch(1);
        CompletableFuture<Integer> inserts = CompletableFuture.supplyAsync(() -> {
            int count = 0;
            while (done.getCount() > 0 && count < 2000) {
                publish("http");
                count++;
            }
            return count;
        }, executor);
        List<UUID> seen = new ArrayList<>();
        try {
            PageRequest page = new PageRequest(null, 7, false);
            while (page != null) {
                EntryPage result = admin.list(EntryFilter.ANY, page);
                result.entries().forEach(entry -> seen.add(entry.id()));
                page = page.next(result);
            }
        } finally {
            done.countDown();
        }
        assertTrue(inserts.get(1, TimeUnit.MINUTES) > 0);
        assertEquals(seen.size(), new HashSet<>(seen).size(), "no entry listed twice");
        assertTrue(seen.containsAll(existing), "every entry that existed before is listed");
    }

    @Test
    final void listFiltersOnEveryCriterionAndCarriesThePayloadOnlyWhenAsked() {
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        UUID oldHttp = publishAt("http", "order.created", t0);
        UUID newHttp = publishAt("http", "order.paid", t0.plus(Duration.ofHours(2)));
        UUID kafka = publishAt("kafka", "order.created", t0.plus(Duration.ofHours(1)));
        fail(newHttp, t0.plus(Duration.ofHours(3)), "HTTP 404 from https://x/100%_done");
        retry(kafka, t0.plus(Duration.ofHours(4)), "HTTP 503");

        assertEquals(List.of(newHttp), listed(EntryFilter.ANY.withStatuses(OutboxStatus.FAILED)));
        assertEquals(List.of(newHttp, oldHttp), listed(EntryFilter.ANY.withDeliveryType("http")));
        assertEquals(List.of(kafka, oldHttp), listed(EntryFilter.ANY.withMessageType("order.created")));
        assertEquals(List.of(kafka, oldHttp), listed(EntryFilter.ANY.withCreated(t0, t0.plus(Duration.ofHours(2)))));
        assertEquals(List.of(newHttp), listed(EntryFilter.ANY.withCreated(t0.plus(Duration.ofHours(2)), null)));
        assertEquals(List.of(kafka), listed(EntryFilter.ANY.withLastAttempt(t0.plus(Duration.ofHours(4)), null)));
        assertEquals(List.of(newHttp), listed(EntryFilter.ANY.withErrorContaining("100%_d")),
                "% and _ are plain characters");
        assertEquals(List.of(), listed(EntryFilter.ANY.withErrorContaining("100%_D")), "case-sensitive");
        assertEquals(List.of(), listed(EntryFilter.ANY.withErrorContaining("1%0")));
        assertEquals(List.of(kafka), listed(EntryFilter.ANY.withStatuses(OutboxStatus.PENDING)
                .withDeliveryType("kafka").withErrorContaining("503")));

        EntryView withPayload = admin.list(EntryFilter.ANY.withDeliveryType("kafka"), new PageRequest(null, 10, true))
                .entries().get(0);
        assertEquals("{\"type\":\"kafka\"}", withPayload.payload());
        assertEquals(1, withPayload.attempts());
        assertEquals(t0.plus(Duration.ofHours(4)), withPayload.lastAttemptAt());
        assertEquals("HTTP 503", withPayload.lastError());
    }

    @Test
    final void getReturnsThePayloadAndTheFailureHistoryOldestFirst() {
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.MICROS);
        UUID id = publish("http");
        retry(id, t0.plusSeconds(1), "HTTP 503");
        retry(id, t0.plusSeconds(2), "timed out");
        fail(id, t0.plusSeconds(3), "HTTP 404");

        EntryDetails details = admin.get(id).orElseThrow();

        assertEquals("{\"type\":\"http\"}", details.entry().payload());
        assertEquals(OutboxStatus.FAILED, details.entry().status());
        assertEquals(List.of(new FailedAttempt(1, t0.plusSeconds(1), false, "HTTP 503"),
                new FailedAttempt(2, t0.plusSeconds(2), false, "timed out"),
                new FailedAttempt(3, t0.plusSeconds(3), true, "HTTP 404")), details.failures());
        assertTrue(admin.get(UUID.randomUUID()).isEmpty());
    }

    // ---------------------------------------------------------------- failure history

    @Test
    final void historyRecordsFailedAttemptsOnlyAndEveryOutcomeWritesItsAttemptTime() {
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.MICROS);
        UUID delivered = publish("http");
        UUID retried = publish("http");
        UUID postponed = publish("http");
        UUID failed = publish("http");
        Instant at = t0.plusSeconds(5);
        tx(() -> {
            List<OutboxEntry> updated = new ArrayList<>();
            for (OutboxEntry entry : store.claim(Set.of("http"), at, 10)) {
                updated.add(entry.id().equals(delivered) ? entry.toDelivered(at)
                        : entry.id().equals(retried) ? entry.toRetry(at, at.plusSeconds(10), "HTTP 503")
                        : entry.id().equals(postponed) ? entry.toPostponed(at, at.plusSeconds(10), "producer closed")
                        : entry.toFailed(at, "HTTP 400"));
            }
            store.update(updated);
            return null;
        });

        assertEquals(2, database.queryForLong("SELECT COUNT(*) FROM outbox_attempt"), "one row per failed attempt");
        assertEquals(List.of(), admin.get(delivered).orElseThrow().failures());
        assertEquals(List.of(), admin.get(postponed).orElseThrow().failures());
        assertEquals(List.of(new FailedAttempt(1, at, false, "HTTP 503")), admin.get(retried).orElseThrow().failures());
        assertEquals(List.of(new FailedAttempt(1, at, true, "HTTP 400")), admin.get(failed).orElseThrow().failures());
        assertEquals(at, admin.get(delivered).orElseThrow().entry().lastAttemptAt());
        assertEquals(at, admin.get(retried).orElseThrow().entry().lastAttemptAt());
        assertEquals(at, admin.get(failed).orElseThrow().entry().lastAttemptAt());
        assertNull(admin.get(postponed).orElseThrow().entry().lastAttemptAt(), "no attempt was made");
        assertEquals(at, tx(() -> store.find(retried)).orElseThrow().lastAttemptAt(), "the store reads it back");
    }

    @Test
    final void aWholeBatchDeliveredWritesNoHistory() {
        for (int i = 0; i < 50; i++) {
            publish("http");
        }
        Instant at = Instant.now().plusSeconds(1);
        tx(() -> {
            store.update(store.claim(Set.of("http"), at, 100).stream().map(entry -> entry.toDelivered(at)).toList());
            return null;
        });
        assertEquals(50, database.queryForLong("SELECT COUNT(*) FROM outbox WHERE status = 'DELIVERED'"));
        assertEquals(0, database.queryForLong("SELECT COUNT(*) FROM outbox_attempt"));
    }

    // ---------------------------------------------------------------- replay

    @Test
    final void replayMakesAFailedEntryPendingDueNowWithTheSameIdAndKeepsItsHistory() {
        UUID id = publish("http");
        Instant failedAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        fail(id, failedAt, "HTTP 404");

        assertEquals(ActionOutcome.DONE, admin.replay(id));

        EntryDetails details = admin.get(id).orElseThrow();
        assertEquals(OutboxStatus.PENDING, details.entry().status());
        assertEquals(0, details.entry().attempts());
        assertEquals("HTTP 404", details.entry().lastError(), "kept until the next attempt");
        assertEquals(1, details.failures().size());
        assertEquals(List.of(id), tx(() -> store.claim(Set.of("http"), Instant.now().plusSeconds(1), 10))
                .stream().map(OutboxEntry::id).toList(), "due now, same id");
        assertEquals(ActionOutcome.WRONG_STATUS, admin.replay(id), "pending is not replayable");
        assertEquals(ActionOutcome.NOT_FOUND, admin.replay(UUID.randomUUID()));
        assertEquals(1, audited.size());
        assertEquals("replay", audited.get(0).action());
        assertEquals(id.toString(), audited.get(0).target());
        assertEquals("operator-1", audited.get(0).caller());
    }

    @Test
    final void ofTwoConcurrentReplaysExactlyOneWins() throws Exception {
        for (int round = 0; round < 10; round++) {
            UUID id = publish("http");
            fail(id, Instant.now(), "HTTP 404");
            CyclicBarrier start = new CyclicBarrier(2);
            List<CompletableFuture<ActionOutcome>> replays = List.of(
                    CompletableFuture.supplyAsync(() -> replayAfter(start, id), executor),
                    CompletableFuture.supplyAsync(() -> replayAfter(start, id), executor));
            Set<ActionOutcome> outcomes = Set.of(replays.get(0).get(1, TimeUnit.MINUTES),
                    replays.get(1).get(1, TimeUnit.MINUTES));
            assertEquals(Set.of(ActionOutcome.DONE, ActionOutcome.WRONG_STATUS), outcomes, "round " + round);
        }
    }

    @Test
    final void aReplayWhileAnotherHoldsTheEntryLosesAtOnce() throws Exception {
        UUID id = publish("http");
        fail(id, Instant.now(), "HTTP 404");
        CountDownLatch firstHoldsLock = new CountDownLatch(1);
        CountDownLatch secondDone = new CountDownLatch(1);
        OutboxAdmin slow = new StoreOutboxAdmin(holdingReplays(adminStore, firstHoldsLock, secondDone), store,
                transactions, Clock.systemUTC(), () -> "slow", audited::add);
        CompletableFuture<ActionOutcome> first = CompletableFuture.supplyAsync(() -> slow.replay(id), executor);
        await(firstHoldsLock);
        long start = System.nanoTime();
        ActionOutcome second = admin.replay(id);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        secondDone.countDown();

        assertEquals(ActionOutcome.WRONG_STATUS, second);
        assertTrue(took.compareTo(AT_ONCE) < 0, "no lock wait, took " + took);
        assertEquals(ActionOutcome.DONE, first.get(1, TimeUnit.MINUTES));
    }

    @Test
    final void anEntryARunningBatchHoldsIsBusyAtOnceAndLeftAsItWas() throws Exception {
        UUID id = publish("http");
        CountDownLatch claimed = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Integer> batch = CompletableFuture.supplyAsync(() -> tx(() -> {
            int size = store.claim(Set.of("http"), Instant.now().plusSeconds(1), 10).size();
            claimed.countDown();
            await(release);
            return size;
        }), executor);
        await(claimed);
        try {
            long start = System.nanoTime();
            ActionOutcome replay = admin.replay(id);
            ActionOutcome discard = admin.discard(id);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertEquals(ActionOutcome.BUSY, replay);
            assertEquals(ActionOutcome.BUSY, discard);
            assertTrue(took.compareTo(AT_ONCE) < 0, "no lock wait, took " + took);
            BulkResult bulk = admin.discard(EntryFilter.ANY, new BulkRequest(false, 10, Duration.ZERO));
            assertEquals(new BulkResult(1, 0, false), bulk, "skipped, not waited for");
        } finally {
            release.countDown();
        }
        assertEquals(1, batch.get(1, TimeUnit.MINUTES));
        assertEquals(OutboxStatus.PENDING, admin.get(id).orElseThrow().entry().status());
        assertEquals(ActionOutcome.DONE, admin.discard(id), "free again");
    }

    // ---------------------------------------------------------------- bulk

    @Test
    final void bulkReplayAboveTheMaximumIsRefusedAndChangesNothing() {
        List<UUID> failed = failMany(12, "http");
        EntryFilter filter = EntryFilter.ANY.withDeliveryType("http");

        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> admin.replay(filter, new BulkRequest(false, 11, Duration.ZERO)));

        assertTrue(refused.getMessage().contains("maximum"), refused.getMessage());
        assertTrue(refused.getMessage().contains("12"), refused.getMessage());
        assertEquals(12, database.queryForLong("SELECT COUNT(*) FROM outbox WHERE status = 'FAILED'"));
        assertEquals(List.of(), audited);
        assertEquals(new BulkResult(12, 0, true), admin.replay(filter, new BulkRequest(true, 12, Duration.ZERO)));
        assertEquals(12, database.queryForLong("SELECT COUNT(*) FROM outbox WHERE status = 'FAILED'"),
                "a dry run changes nothing");
        assertEquals(12, failed.size());
    }

    @Test
    final void bulkReplayRunsInBatchesOfBoundedSizeAndSpreadsTheDueTimes() {
        int count = BulkRequest.BATCH_SIZE * 2 + 37;
        failMany(count, "http");
        UUID pending = publish("http");
        CountingTransactions counting = new CountingTransactions(transactions);
        Instant before = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Duration spread = Duration.ofMinutes(10);

        BulkResult result = admin(counting).replay(EntryFilter.ANY, new BulkRequest(false, count, spread));

        assertEquals(new BulkResult(count, count, false), result);
        assertEquals(1 + 3, counting.count(), "the count, then batches of 500, 500 and 37");
        assertEquals(count, database.queryForLong("SELECT COUNT(*) FROM outbox WHERE status = 'PENDING' AND attempts = 0 "
                + "AND id <> " + idLiteral(pending)));
        List<Instant> due = new ArrayList<>();
        PageRequest page = new PageRequest(null, OutboxAdmin.MAX_PAGE_SIZE, false);
        while (page != null) {
            EntryPage listed = admin.list(EntryFilter.ANY, page);
            listed.entries().stream().filter(e -> !e.id().equals(pending)).forEach(e -> due.add(e.nextAttemptAt()));
            page = page.next(listed);
        }
        Instant after = Instant.now().plus(spread);
        assertTrue(due.stream().allMatch(d -> !d.isBefore(before) && !d.isAfter(after)), "within the spread");
        long firstMinute = due.stream().filter(d -> d.isBefore(before.plus(Duration.ofMinutes(1)))).count();
        assertTrue(firstMinute < count / 4, firstMinute + " of " + count + " due in the first of ten minutes");
        assertEquals(1, audited.size());
        assertEquals(count, audited.get(0).changed());
    }

    @Test
    final void bulkReplayReplaysOnlyFailedAndDiscardedEntriesOfTheFilter() {
        failMany(3, "http");
        failMany(2, "kafka");
        UUID pending = publish("http");
        UUID discarded = publish("http");
        assertEquals(ActionOutcome.DONE, admin.discard(discarded));

        BulkResult result = admin.replay(EntryFilter.ANY.withDeliveryType("http"),
                new BulkRequest(false, 100, Duration.ZERO));

        assertEquals(new BulkResult(4, 4, false), result);
        assertEquals(2, database.queryForLong("SELECT COUNT(*) FROM outbox WHERE status = 'FAILED'"), "kafka's");
        assertEquals(OutboxStatus.PENDING, admin.get(discarded).orElseThrow().entry().status());
        assertEquals(OutboxStatus.PENDING, admin.get(pending).orElseThrow().entry().status());
        assertEquals(new BulkResult(0, 0, false), admin.replay(EntryFilter.ANY.withStatuses(OutboxStatus.PENDING),
                new BulkRequest(false, 100, Duration.ZERO)), "no replayable status asked for");
    }

    // ---------------------------------------------------------------- discard

    @Test
    final void discardGivesUpPendingAndFailedEntriesWhichAreNeverClaimedAndCanBeReplayed() {
        UUID pending = publish("http");
        UUID failed = publish("http");
        fail(failed, Instant.now(), "HTTP 404");
        UUID delivered = publish("kafka");
        deliver(delivered);

        assertEquals(ActionOutcome.DONE, admin.discard(pending));
        assertEquals(ActionOutcome.DONE, admin.discard(failed));
        assertEquals(ActionOutcome.WRONG_STATUS, admin.discard(delivered));
        assertEquals(ActionOutcome.WRONG_STATUS, admin.discard(pending), "already discarded");
        assertEquals(ActionOutcome.NOT_FOUND, admin.discard(UUID.randomUUID()));

        assertEquals(List.of(), tx(() -> store.claim(Set.of("http"), Instant.now().plusSeconds(60), 10)));
        assertEquals(OutboxStatus.DISCARDED, admin.get(pending).orElseThrow().entry().status());
        assertEquals(ActionOutcome.DONE, admin.replay(pending));
        assertEquals(2 + 1, audited.size());
    }

    @Test
    final void bulkDiscardChangesTheMatchingEntriesOnly() {
        failMany(4, "http");
        publish("http");
        UUID kafka = publish("kafka");

        assertEquals(new BulkResult(5, 0, true), admin.discard(EntryFilter.ANY.withDeliveryType("http"),
                new BulkRequest(true, 5, Duration.ZERO)));
        assertThrows(IllegalArgumentException.class, () -> admin.discard(EntryFilter.ANY.withDeliveryType("http"),
                new BulkRequest(false, 4, Duration.ZERO)));
        assertEquals(new BulkResult(5, 5, false), admin.discard(EntryFilter.ANY.withDeliveryType("http"),
                new BulkRequest(false, 5, Duration.ZERO)));

        assertEquals(5, database.queryForLong("SELECT COUNT(*) FROM outbox WHERE status = 'DISCARDED'"));
        assertEquals(OutboxStatus.PENDING, admin.get(kafka).orElseThrow().entry().status());
    }

    @Test
    final void discardedEntriesArePurgedWithTheirHistoryAfterTheirRetention() {
        UUID old = publish("http");
        fail(old, Instant.now(), "HTTP 404");
        UUID young = publish("http");
        assertEquals(ActionOutcome.DONE, admin.discard(old));
        assertEquals(ActionOutcome.DONE, admin.discard(young));
        sql("UPDATE outbox SET updated_at = " + (isPostgreSql() ? "now() - interval '31 days'"
                : "UTC_TIMESTAMP(6) - INTERVAL 31 DAY") + " WHERE id = " + idLiteral(old));
        UUID failed = publish("http");
        fail(failed, Instant.now().minus(Duration.ofDays(60)), "HTTP 404");

        int purged = new OutboxPurger(store, transactions, PurgerSettings.DEFAULT, Clock.systemUTC()).purge();

        assertEquals(1, purged);
        assertTrue(admin.get(old).isEmpty());
        assertTrue(admin.get(young).isPresent());
        assertTrue(admin.get(failed).isPresent(), "failed entries are never purged");
        assertEquals(1, database.queryForLong("SELECT COUNT(*) FROM outbox_attempt"), "only the failed entry's history");
    }

    // ---------------------------------------------------------------- pause

    @Test
    final void aPauseStopsTheClaimsOfEveryInstanceUntilResumedAndPublishingGoesOn() throws Exception {
        DataSourceTransactions otherTransactions = new DataSourceTransactions(database.dataSource());
        JdbcOutboxStore otherInstance = new JdbcOutboxStore(otherTransactions, store.dialect());
        UUID http = publish("http");
        UUID kafka = publish("kafka");

        admin.pause("http");
        admin.pause("http");
        UUID publishedWhilePaused = publish("http");
        Instant later = Instant.now().plusSeconds(1);

        CountDownLatch firstClaimed = new CountDownLatch(1);
        CountDownLatch secondDone = new CountDownLatch(1);
        CompletableFuture<List<UUID>> first = CompletableFuture.supplyAsync(() -> otherTransactions.inNewTransaction(
                () -> {
                    List<UUID> claimed = ids(otherInstance.claim(Set.of("http", "kafka"), later, 10));
                    firstClaimed.countDown();
                    await(secondDone);
                    return claimed;
                }), executor);
        await(firstClaimed);
        List<UUID> second = tx(() -> ids(store.claim(Set.of("http", "kafka"), later, 10)));
        secondDone.countDown();

        assertEquals(List.of(kafka), first.get(1, TimeUnit.MINUTES), "the other instance skips the paused type");
        assertEquals(List.of(), second, "a concurrent claim does not miss the pause either");
        assertEquals(List.of("http"), admin.paused().stream().map(p -> p.deliveryType()).toList());
        assertEquals("operator-1", admin.paused().get(0).pausedBy());
        assertEquals(1, audited.size(), "pausing a paused type changes nothing");

        admin.resume("http");
        admin.resume("http");
        assertEquals(Set.of(http, publishedWhilePaused), new HashSet<>(otherTransactions.inNewTransaction(
                () -> ids(otherInstance.claim(Set.of("http"), later, 10)))));
        assertEquals(List.of(), admin.paused());
        assertEquals(2, audited.size());
    }

    @Test
    final void overviewCountsPerStatusAndTypeAndTheStuckEntries() {
        UUID stuck = publish("http");
        failMany(2, "kafka");
        UUID discarded = publish("http");
        admin.discard(discarded);
        deliver(publish("http"));
        admin.pause("kafka");
        sql("UPDATE outbox SET next_attempt_at = " + (isPostgreSql() ? "now() - interval '1 hour'"
                : "UTC_TIMESTAMP(6) - INTERVAL 1 HOUR") + " WHERE id = " + idLiteral(stuck));

        OutboxOverview overview = admin.overview(Duration.ofMinutes(5));

        assertEquals(Map.of(OutboxStatus.PENDING, Map.of("http", 1L), OutboxStatus.FAILED, Map.of("kafka", 2L),
                OutboxStatus.DISCARDED, Map.of("http", 1L)), overview.counts());
        assertEquals(1, overview.stuck());
        assertEquals(0, admin.overview(Duration.ofHours(2)).stuck());
        assertFalse(overview.oldestPendingAge().isNegative());
        assertEquals(List.of("kafka"), overview.paused().stream().map(p -> p.deliveryType()).toList());
    }

    // ---------------------------------------------------------------- hostile input

    @Test
    final void malformedInputIsRefusedNamingTheParameterAndChangesNothing() {
        UUID failed = publish("http");
        fail(failed, Instant.now(), "HTTP 404");
        String genuine = admin.list(EntryFilter.ANY, new PageRequest(null, 1, false)).nextPage();
        assertNull(genuine, "one entry, one page");
        publish("http");
        String token = admin.list(EntryFilter.ANY, new PageRequest(null, 1, false)).nextPage();
        assertNotNull(token);
        assertEquals(1, admin.list(EntryFilter.ANY, new PageRequest(token, 1, false)).entries().size());

        for (String bad : List.of("", "x", "!!!!!!!!!!!!!!!!!!!!!!", token + "A", token.substring(1), "A".repeat(5000),
                "' OR 1=1 --", token.substring(0, 21) + "B")) {
            assertNames("after", () -> admin.list(EntryFilter.ANY, new PageRequest(bad, 10, false)));
        }
        assertNames("errorContains", () -> EntryFilter.ANY.withErrorContaining("x".repeat(256)));
        assertNames("deliveryType", () -> EntryFilter.ANY.withDeliveryType(" "));
        assertNames("size", () -> new PageRequest(null, OutboxAdmin.MAX_PAGE_SIZE + 1, false));
        assertNames("createdFrom", () -> admin.list(EntryFilter.ANY.withCreated(Instant.parse("+20000-01-01T00:00:00Z"),
                null), PageRequest.FIRST));
        assertNames("lastAttemptTo", () -> admin.replay(EntryFilter.ANY.withLastAttempt(null, Instant.MIN),
                new BulkRequest(false, 10, Duration.ZERO)));
        assertNames("maximum", () -> new BulkRequest(false, BulkRequest.MAX_MAXIMUM + 1, Duration.ZERO));
        assertNames("spread", () -> new BulkRequest(false, 10, Duration.ofDays(2)));
        assertNames("deliveryType", () -> admin.pause("x".repeat(65)));
        assertNames("deliveryType", () -> admin.pause(""));
        assertNames("deliveryType", () -> admin.resume(null));
        assertNames("id", () -> admin.replay((UUID) null));
        assertNames("filter", () -> admin.discard(null, new BulkRequest(false, 10, Duration.ZERO)));
        assertNames("stuckAfter", () -> admin.overview(Duration.ofSeconds(-1)));

        assertEquals(List.of(), admin.list(EntryFilter.ANY.withErrorContaining("' OR 1=1 --"), PageRequest.FIRST)
                .entries(), "text is bound, never pasted");
        assertEquals(OutboxStatus.FAILED, admin.get(failed).orElseThrow().entry().status());
        assertEquals(List.of(), admin.paused());
        assertEquals(List.of(), audited);
    }

    // ---------------------------------------------------------------- helpers

    /** {@code delegate}, except that a replay, once its entry is locked, holds it until told to go on. */
    private static OutboxAdminStore holdingReplays(OutboxAdminStore delegate, CountDownLatch locked,
                                                   CountDownLatch proceed) {
        return (OutboxAdminStore) Proxy.newProxyInstance(OutboxAdminStore.class.getClassLoader(),
                new Class<?>[] {OutboxAdminStore.class}, (self, method, args) -> {
                    if (method.getName().equals("replay")) {
                        locked.countDown();
                        await(proceed);
                    }
                    try {
                        return method.invoke(delegate, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private OutboxAdmin admin(TransactionRunner runner) {
        return new StoreOutboxAdmin(adminStore, store, runner, Clock.systemUTC(), () -> "operator-1", audited::add);
    }

    private ActionOutcome replayAfter(CyclicBarrier start, UUID id) {
        try {
            start.await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return admin.replay(id);
    }

    private List<UUID> listed(EntryFilter filter) {
        return admin.list(filter, PageRequest.FIRST).entries().stream().map(EntryView::id).toList();
    }

    private UUID publish(String deliveryType) {
        return tx(() -> publisher.publish(new OutboxMessage("test", "{\"type\":\"" + deliveryType + "\"}"),
                new TestDelivery(deliveryType)));
    }

    private UUID publishAt(String deliveryType, String messageType, Instant at) {
        StoreOutboxPublisher atTime = new StoreOutboxPublisher(store, StoreOutboxPublisher.DEFAULT_MAX_PAYLOAD_BYTES,
                Clock.fixed(at, ZoneOffset.UTC));
        return tx(() -> atTime.publish(new OutboxMessage(messageType, "{\"type\":\"" + deliveryType + "\"}"),
                new TestDelivery(deliveryType)));
    }

    /** Claims the entry (whatever its due time) and records a permanent failure at {@code at}. */
    private void fail(UUID id, Instant at, String error) {
        transition(id, entry -> entry.toFailed(at, error));
    }

    private void retry(UUID id, Instant at, String error) {
        transition(id, entry -> entry.toRetry(at, at, error));
    }

    private void deliver(UUID id) {
        transition(id, entry -> entry.toDelivered(Instant.now()));
    }

    private void transition(UUID id, java.util.function.UnaryOperator<OutboxEntry> change) {
        tx(() -> {
            OutboxEntry claimed = store.claim(Set.of(store.find(id).orElseThrow().deliveryType()),
                            Instant.parse("9999-01-01T00:00:00Z"), 100_000).stream()
                    .filter(entry -> entry.id().equals(id)).findFirst().orElseThrow();
            store.update(List.of(change.apply(claimed)));
            return null;
        });
    }

    /** Publishes {@code count} entries and fails them, in transactions of up to 500. */
    private List<UUID> failMany(int count, String deliveryType) {
        List<UUID> ids = new ArrayList<>();
        Instant at = Instant.now().truncatedTo(ChronoUnit.MICROS);
        for (int start = 0; start < count; start += 500) {
            int size = Math.min(500, count - start);
            ids.addAll(tx(() -> {
                List<UUID> batch = new ArrayList<>();
                for (int i = 0; i < size; i++) {
                    batch.add(publisher.publish(new OutboxMessage("test", "{}"), new TestDelivery(deliveryType)));
                }
                Set<UUID> mine = new HashSet<>(batch);
                store.update(store.claim(Set.of(deliveryType), Instant.parse("9999-01-01T00:00:00Z"), 100_000).stream()
                        .filter(entry -> mine.contains(entry.id())).map(entry -> entry.toFailed(at, "HTTP 404")).toList());
                return batch;
            }));
        }
        return ids;
    }

    private boolean isPostgreSql() {
        return store.dialect() instanceof PostgreSqlDialect;
    }

    private String idLiteral(UUID id) {
        // UNHEX rather than UUID_TO_BIN, which MariaDB lacks.
        return isPostgreSql() ? "'" + id + "'" : "UNHEX('" + id.toString().replace("-", "") + "')";
    }

    private static List<UUID> ids(List<OutboxEntry> entries) {
        return entries.stream().map(OutboxEntry::id).toList();
    }

    private <T> T tx(Supplier<T> work) {
        return transactions.inNewTransaction(work);
    }

    private void sql(String sql) {
        try (Connection connection = database.dataSource().getConnection();
             java.sql.Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static void assertNames(String argument, Runnable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call::run);
        assertTrue(e.getMessage().startsWith(argument) || e.getMessage().contains(argument + " "),
                "'" + e.getMessage() + "' should name " + argument);
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
