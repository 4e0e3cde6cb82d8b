package org.eeoutbox.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.eeoutbox.DeliveryInfo;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.TraceContext;
import org.eeoutbox.engine.OutboxPurger;
import org.eeoutbox.engine.PurgerSettings;
import org.eeoutbox.engine.StoreOutboxPublisher;
import org.eeoutbox.spi.DeliveryTracing;
import org.eeoutbox.spi.FeedEvent;
import org.eeoutbox.spi.FeedStore;
import org.eeoutbox.testkit.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The feed store contract (issue 20, docs/feed.md), written once and run against each real
 * database: entries complete at publish are written delivered and never claimed, a reader
 * following the cursor sees every committed event once and in commit order while concurrent
 * publishers commit out of id order, and the purger keeps a feed for its own retention.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
abstract class AbstractFeedStoreTest {

    private static final Set<String> FEED = Set.of(FeedStore.DELIVERY_TYPE);

    /** Ids in the order they are taken, as the publisher's time-ordered ids are. */
    private final AtomicLong ids = new AtomicLong();
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private TestDatabase database;
    private DataSourceTransactions transactions;
    private JdbcOutboxStore store;
    private JdbcFeedStore feeds;
    private SqlDialect dialect;

    /** Returns the real database to run against. */
    protected abstract TestDatabase database();

    /** A feed delivery as the feed module's FeedDelivery builds it: the channel is the ordering key. */
    private record Channel(String name) implements DeliveryInfo {
        @Override
        public String deliveryType() {
            return FeedStore.DELIVERY_TYPE;
        }

        @Override
        public String metadataJson() {
            return "{\"channel\":\"" + name + "\"}";
        }

        @Override
        public String orderingKey() {
            return name;
        }
    }

    @BeforeAll
    final void createSchema() throws SQLException {
        database = database();
        transactions = new DataSourceTransactions(database.dataSource());
        dialect = OutboxTables.recreate(database);
        store = new JdbcOutboxStore(transactions, dialect);
        feeds = new JdbcFeedStore(transactions, dialect);
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

    @Test
    final void aFeedEntryIsWrittenDeliveredWithItsTraceAndIsNeverClaimed() {
        TraceContext trace = TraceContext.parse("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "k=v");
        Instant now = Instant.parse("2026-12-05T08:00:00Z");
        DeliveryTracing tracing = new DeliveryTracing() {
            @Override
            public TraceContext current() {
                return trace;
            }

            @Override
            public DeliverySpan startDelivery(OutboxEntry entry) {
                return DeliverySpan.NONE;
            }
        };
        StoreOutboxPublisher publisher = new StoreOutboxPublisher(store, 1 << 20, Clock.fixed(now, ZoneOffset.UTC),
                tracing, FEED);

        UUID id = transactions.inNewTransaction(() ->
                publisher.publish(new OutboxMessage("note.created", "{\"n\":1}"), new Channel("news")));

        OutboxEntry entry = transactions.inNewTransaction(() -> store.find(id)).orElseThrow();
        assertEquals(OutboxStatus.DELIVERED, entry.status());
        assertEquals(now, entry.deliveredAt());
        assertEquals("news", entry.orderingKey());
        assertEquals(1L, entry.orderingSeq());
        assertEquals(trace, entry.traceContext());
        assertEquals(List.of(), transactions.inNewTransaction(() -> store.claim(FEED, now.plusSeconds(60), 10)));
        assertEquals(List.of(new FeedEvent(1, id, "note.created", "{\"n\":1}")),
                transactions.inNewTransaction(() -> feeds.read("news", 0, 10)));
    }

    @Test
    final void readReturnsOnlyItsChannelAfterTheCursorInOrderUpToTheLimit() {
        for (int i = 1; i <= 5; i++) {
            publish("a", "a" + i);
            publish("b", "b" + i);
        }
        List<FeedEvent> read = transactions.inNewTransaction(() -> feeds.read("a", 2, 2));
        assertEquals(List.of(3L, 4L), seqs(read));
        assertEquals(List.of("\"a3\"", "\"a4\""), read.stream().map(FeedEvent::payload).toList());
        assertEquals(List.of(), transactions.inNewTransaction(() -> feeds.read("a", 5, 10)));
        assertEquals(List.of(), transactions.inNewTransaction(() -> feeds.read("none", 0, 10)));
        assertEquals(5L, transactions.inNewTransaction(() -> feeds.head("a")));
        assertEquals(0L, transactions.inNewTransaction(() -> feeds.head("none")));
    }

    @Test
    final void concurrentPublishersCommittingOutOfIdOrderNeverMakeAPollingReaderMissOrRepeat() throws Exception {
        int publishers = 6;
        int perPublisher = 25;
        int total = publishers * perPublisher;
        ConcurrentLinkedQueue<UUID> published = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> running = new ArrayList<>();
        for (int p = 0; p < publishers; p++) {
            running.add(executor.submit(() -> {
                start.await();
                for (int i = 0; i < perPublisher; i++) {
                    // The id (time-ordered) is taken first; the pauses before the insert and before
                    // the commit let a later id take the channel first and commit first.
                    UUID id = nextId();
                    pause(ThreadLocalRandom.current().nextInt(4));
                    transactions.inNewTransaction(() -> {
                        Instant now = Instant.now();
                        store.insert(OutboxEntry.create(id, new OutboxMessage("e", "{}"), new Channel("race"), now)
                                .toDelivered(now));
                        pause(ThreadLocalRandom.current().nextInt(3));
                        return null;
                    });
                    published.add(id);
                }
                return null;
            }));
        }
        List<FeedEvent> received = new ArrayList<>();
        start.countDown();
        long cursor = 0;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (received.size() < total && System.nanoTime() < deadline) {
            long after = cursor;
            List<FeedEvent> page = transactions.inNewTransaction(() -> feeds.read("race", after, 7));
            for (FeedEvent event : page) {
                assertTrue(event.seq() > cursor, "cursor went back: " + event.seq() + " after " + cursor);
                cursor = event.seq();
                received.add(event);
            }
            if (page.isEmpty()) {
                pause(1);
            }
        }
        for (Future<?> publisher : running) {
            publisher.get(1, TimeUnit.MINUTES);
        }

        assertEquals(total, received.size(), "events received");
        assertEquals(new HashSet<>(published), new HashSet<>(received.stream().map(FeedEvent::id).toList()),
                "each published event once");
        List<Long> seqs = received.stream().map(FeedEvent::seq).toList();
        assertEquals(java.util.stream.LongStream.rangeClosed(1, total).boxed().toList(), seqs, "commit order, no gap");
        List<UUID> byId = received.stream().map(FeedEvent::id).sorted(Comparator.naturalOrder()).toList();
        assertFalse(byId.equals(received.stream().map(FeedEvent::id).toList()),
                "some transactions were expected to commit out of id order; none did");
        assertEquals(List.of(), transactions.inNewTransaction(() -> feeds.read("race", total, 10)));
    }

    @Test
    final void anEventTheReadsFirstSnapshotLeftOutIsReadBeforeTheCursorPassesIt() throws SQLException {
        // MariaDB's snapshot can show event 3's commit without event 2's, which committed first. Here
        // event 2 is hidden under another key while the read's first statement runs, then committed
        // back by another transaction: the real database, with the snapshot MariaDB can take.
        for (int i = 1; i <= 4; i++) {
            publish("late", "e" + i);
        }
        database.execute("UPDATE outbox SET ordering_key = 'hidden' WHERE ordering_key = 'late' AND ordering_seq = 2");
        AtomicInteger statements = new AtomicInteger();
        AtomicBoolean revealSecond = new AtomicBoolean();
        ConnectionProvider revealing = new ConnectionProvider() {
            @Override
            public <T> T withConnection(SqlFunction<T> work) throws SQLException {
                if (statements.incrementAndGet() == 2 && revealSecond.get()) {
                    database.execute("UPDATE outbox SET ordering_key = 'late' WHERE ordering_key = 'hidden'");
                }
                return transactions.withConnection(work);
            }
        };
        JdbcFeedStore reader = new JdbcFeedStore(revealing, dialect);

        // A gap that stays (event 2 purged, say): the events after it are returned.
        assertEquals(List.of(1L, 3L, 4L), seqs(transactions.inNewTransaction(() -> reader.read("late", 0, 10))));
        assertEquals(2, statements.get(), "a read with a gap reads again");
        // Consecutive events: one statement.
        statements.set(0);
        assertEquals(List.of(3L, 4L), seqs(transactions.inNewTransaction(() -> reader.read("late", 2, 10))));
        assertEquals(1, statements.get(), "no gap, no second read");

        statements.set(0);
        revealSecond.set(true);
        assertEquals(List.of(1L, 2L, 3L), seqs(transactions.inNewTransaction(() -> reader.read("late", 0, 3))),
                "event 2, committed before the second read, is returned before the cursor passes it");
    }

    @Test
    final void thePurgerKeepsAFeedForItsOwnRetentionAndTheExpiredCursorShowsIt() {
        Instant now = Instant.now();
        Instant tenDaysAgo = now.minus(Duration.ofDays(10));
        Instant twoDaysAgo = now.minus(Duration.ofDays(2));
        insertDelivered("old", "http", null, tenDaysAgo);
        UUID oldFeed1 = insertDelivered("f1", FeedStore.DELIVERY_TYPE, "chan", tenDaysAgo);
        UUID oldFeed2 = insertDelivered("f2", FeedStore.DELIVERY_TYPE, "chan", tenDaysAgo);
        UUID recentFeed = insertDelivered("f3", FeedStore.DELIVERY_TYPE, "chan", twoDaysAgo);
        UUID recentHttp = insertDelivered("recent", "http", null, twoDaysAgo);

        // Delivered entries kept 1 day, feeds 7 days.
        PurgerSettings settings = new PurgerSettings(Duration.ofDays(1), Duration.ofDays(1), Duration.ofDays(30),
                1000, Duration.ofSeconds(10));
        OutboxPurger purger = new OutboxPurger(store, transactions, settings,
                Map.of(FeedStore.DELIVERY_TYPE, Duration.ofDays(7)), Clock.systemUTC());
        assertFalse(transactions.inNewTransaction(() -> feeds.expired("chan", 0)));

        assertEquals(4, purger.purge(), "both old feed events and both http entries");

        assertTrue(transactions.inNewTransaction(() -> store.find(oldFeed1)).isEmpty());
        assertTrue(transactions.inNewTransaction(() -> store.find(oldFeed2)).isEmpty());
        assertTrue(transactions.inNewTransaction(() -> store.find(recentHttp)).isEmpty(), "normal retention");
        assertNotNull(transactions.inNewTransaction(() -> store.find(recentFeed)).orElseThrow());
        assertTrue(transactions.inNewTransaction(() -> feeds.expired("chan", 0)), "events 1 and 2 are gone");
        assertTrue(transactions.inNewTransaction(() -> feeds.expired("chan", 1)), "event 2 is gone");
        assertFalse(transactions.inNewTransaction(() -> feeds.expired("chan", 2)));
        assertFalse(transactions.inNewTransaction(() -> feeds.expired("chan", 3)));
        assertFalse(transactions.inNewTransaction(() -> feeds.expired("unknown", 0)));

        database.execute("DELETE FROM outbox");
        assertTrue(transactions.inNewTransaction(() -> feeds.expired("chan", 2)), "all purged, 3 was after 2");
        assertFalse(transactions.inNewTransaction(() -> feeds.expired("chan", 3)), "all purged, none after 3");
    }

    @Test
    final void aChannelIsReadThroughItsIndexAmongManyOtherRows() throws SQLException {
        transactions.inNewTransaction(() -> {
            Instant now = Instant.now();
            for (int i = 0; i < 3000; i++) {
                DeliveryInfo delivery = i % 3 == 0 ? new TestDelivery("http") : new Channel("busy-" + (i % 10));
                store.insert(OutboxEntry.create(nextId(), new OutboxMessage("e", "{}"), delivery, now).toDelivered(now));
            }
            return null;
        });
        database.execute(dialect instanceof PostgreSqlDialect ? "ANALYZE outbox" : "ANALYZE TABLE outbox");

        StringBuilder plan = new StringBuilder();
        try (java.sql.Connection connection = database.dataSource().getConnection();
             java.sql.PreparedStatement statement = connection.prepareStatement("EXPLAIN " + feeds.readSql())) {
            statement.setString(1, "busy-1");
            statement.setLong(2, 100);
            statement.setInt(3, 50);
            try (java.sql.ResultSet resultSet = statement.executeQuery()) {
                int columns = resultSet.getMetaData().getColumnCount();
                while (resultSet.next()) {
                    for (int c = 1; c <= columns; c++) {
                        plan.append(resultSet.getString(c)).append(' ');
                    }
                    plan.append('\n');
                }
            }
        }

        String index = dialect instanceof PostgreSqlDialect ? "outbox_feed_idx" : "outbox_ordering_idx";
        assertTrue(plan.toString().contains(index), plan.toString());
        // MySQL and MariaDB read the range in index order. PostgreSQL may sort what a bitmap scan of
        // the channel's range returns when it expects few rows, which it does here.
        assertFalse(plan.toString().toLowerCase(java.util.Locale.ROOT).contains("filesort"), plan.toString());
        assertEquals(50, transactions.inNewTransaction(() -> feeds.read("busy-1", 100, 50)).size());
    }

    private void publish(String channel, String text) {
        Instant now = Instant.now();
        transactions.inNewTransaction(() -> store.insert(OutboxEntry.create(nextId(),
                new OutboxMessage("e", "\"" + text + "\""), new Channel(channel), now).toDelivered(now)));
    }

    private UUID insertDelivered(String payload, String type, String channel, Instant at) {
        DeliveryInfo delivery = channel == null ? new TestDelivery(type) : new Channel(channel);
        return transactions.inNewTransaction(() -> store.insert(OutboxEntry.create(nextId(),
                new OutboxMessage("e", "\"" + payload + "\""), delivery, at).toDelivered(at)));
    }

    private static List<Long> seqs(List<FeedEvent> events) {
        return events.stream().map(FeedEvent::seq).toList();
    }

    private UUID nextId() {
        return new UUID(ids.incrementAndGet(), 0);
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
