package org.eeoutbox.bench;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.eeoutbox.DeliveryInfo;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxPublisher;
import org.eeoutbox.engine.StoreOutboxPublisher;
import org.eeoutbox.http.HttpDelivery;
import org.eeoutbox.jdbc.DataSourceTransactions;
import org.eeoutbox.jdbc.JdbcOutboxStore;

/**
 * Publish overhead: business transactions that insert one order row, with one (or ten)
 * {@code publish} calls, against the same transactions without. The transaction is a plain pooled
 * one ({@link DataSourceTransactions}, standing in for the container's JTA transaction that a publish
 * joins), the same on both sides, so the ratio is the cost of the publishes alone. Each publish
 * builds its delivery as an application does ({@code HttpDelivery.to(…).path(…).build()}).
 *
 * <p>Then the same publishes against the floor a user would compare with (issue 21, target 4): a
 * hand-written {@code INSERT} of the same outbox row (same columns, a time-ordered id, the
 * delivery's metadata text built once) in the same transaction.
 */
final class PublishBench {

    private static final String INSERT_ORDER =
            "INSERT INTO bench_order (id, customer, amount, details, created_at) VALUES (?, ?, ?, ?, ?)";
    private static final AtomicLong ORDER_IDS = new AtomicLong();
    /** Issue 17: a keyed publish, at least 0.8 of an unkeyed one. */
    private static final Runner.Target KEYED_TARGET = new Runner.Target(0.80, 0);

    private PublishBench() {
    }

    static void run(Runner runner, List<BenchDatabase> databases, Bench.Options options, Executor executor)
            throws Exception {
        int transactions = options.publishTransactions();
        for (BenchDatabase db : databases) {
            DataSourceTransactions tx = new DataSourceTransactions(db.pool());
            OutboxPublisher publisher = new StoreOutboxPublisher(new JdbcOutboxStore(tx, db.dialect()),
                    StoreOutboxPublisher.DEFAULT_MAX_PAYLOAD_BYTES, Clock.systemUTC());
            boolean warmUp = true;
            for (int workers : options.publishWorkers()) {
                Runner.Side without = Runner.Side.of(db::truncate,
                        () -> business(db, tx, publisher, 0, transactions, workers, executor));
                String config = db.label() + " workers=" + workers;
                runner.compare("publish", config + " 1 publish", "with",
                        Runner.Side.of(db::truncate, () -> business(db, tx, publisher, 1, transactions, workers,
                                executor)),
                        "without", without, new Runner.Target(0.75, 0), warmUp);
                runner.compare("publish", config + " 10 publishes", "with",
                        Runner.Side.of(db::truncate, () -> business(db, tx, publisher, 10, transactions, workers,
                                executor)),
                        "without", without, null, warmUp);
                warmUp = false;
                runner.compare("publish", config + " 1 keyed publish vs 1 publish", "keyed",
                        Runner.Side.of(db::truncate, () -> business(db, tx, publisher, 1, transactions, workers,
                                executor, true)),
                        "unkeyed", Runner.Side.of(db::truncate, () -> business(db, tx, publisher, 1, transactions,
                                workers, executor)), KEYED_TARGET, false);
                OutboxPublisher handWritten = new HandWrittenInsert(db, tx);
                for (int publishes : List.of(1, 10)) {
                    runner.compare("publish", config + " " + publishes + (publishes == 1 ? " publish" : " publishes")
                                    + " vs hand-written insert", "publish",
                            Runner.Side.of(db::truncate, () -> business(db, tx, publisher, publishes, transactions,
                                    workers, executor)),
                            "insert", Runner.Side.of(db::truncate, () -> business(db, tx, handWritten, publishes,
                                    transactions, workers, executor)), new Runner.Target(0.90, 0), false);
                }
            }
        }
    }

    /** Runs {@code total} business transactions on {@code workers} threads; returns how many ran. */
    private static long business(BenchDatabase db, DataSourceTransactions tx, OutboxPublisher publisher, int publishes,
                                 int total, int workers, Executor executor) throws Exception {
        return business(db, tx, publisher, publishes, total, workers, executor, false);
    }

    /**
     * As above; with {@code keyed}, each message's ordering key is its order's customer (one of
     * 1,000), so concurrent transactions of one customer wait for each other as they would.
     */
    private static long business(BenchDatabase db, DataSourceTransactions tx, OutboxPublisher publisher, int publishes,
                                 int total, int workers, Executor executor, boolean keyed) throws Exception {
        AtomicInteger remaining = new AtomicInteger(total);
        return Runner.inParallel(workers, executor, () -> {
            long done = 0;
            while (remaining.getAndDecrement() > 0) {
                tx.inNewTransaction(() -> {
                    long order = insertOrder(db, tx);
                    OutboxMessage message = new OutboxMessage("order.created", BenchDatabase.PAYLOAD);
                    for (int i = 0; i < publishes; i++) {
                        publisher.publish(keyed ? message.withOrderingKey("customer-" + order % 1000) : message,
                                HttpDelivery.to("notification-service").path("/webhooks/orders").build());
                    }
                    return null;
                });
                done++;
            }
            return done;
        });
    }

    /**
     * The floor: the outbox row a {@code publish} writes, inserted by hand with one prepared
     * statement, the metadata text built once. Not an outbox: no checks, no deduplication.
     */
    private static final class HandWrittenInsert implements OutboxPublisher {

        private static final AtomicLong SEQUENCE = new AtomicLong();

        private final BenchDatabase db;
        private final DataSourceTransactions tx;
        private final String sql;
        private final String metadata = HttpDelivery.to("notification-service").path("/webhooks/orders").build()
                .metadataJson();

        HandWrittenInsert(BenchDatabase db, DataSourceTransactions tx) {
            this.db = db;
            this.tx = tx;
            this.sql = "INSERT INTO outbox (id, message_type, payload, delivery_type, delivery_metadata, status, "
                    + "attempts, next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, "
                    + (db.isPostgresql() ? "CAST(? AS json)" : "?") + ", 'PENDING', 0, ?, ?, ?)";
        }

        @Override
        public UUID publish(OutboxMessage message, DeliveryInfo delivery) {
            // Time-ordered like the library's ids, so both append to the primary key's end.
            UUID id = new UUID((System.currentTimeMillis() << 16) | 0x7000L,
                    0x8000_0000_0000_0000L | SEQUENCE.incrementAndGet());
            try {
                return tx.withConnection(connection -> {
                    try (PreparedStatement insert = connection.prepareStatement(sql)) {
                        if (db.isPostgresql()) {
                            insert.setObject(1, id);
                        } else {
                            insert.setBytes(1, ByteBuffer.allocate(16).putLong(id.getMostSignificantBits())
                                    .putLong(id.getLeastSignificantBits()).array());
                        }
                        insert.setString(2, message.messageType());
                        insert.setString(3, message.payload());
                        insert.setString(4, HttpDelivery.DELIVERY_TYPE);
                        insert.setString(5, metadata);
                        Object now = timestamp(db, Instant.now());
                        insert.setObject(6, now);
                        insert.setObject(7, now);
                        insert.setObject(8, now);
                        insert.executeUpdate();
                        return id;
                    }
                });
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** {@code instant} as each database's driver binds it in UTC. */
    private static Object timestamp(BenchDatabase db, Instant instant) {
        return db.isPostgresql() ? instant.atOffset(ZoneOffset.UTC) : LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    /** Inserts an order row; returns its id. */
    private static long insertOrder(BenchDatabase db, DataSourceTransactions tx) {
        try {
            return tx.withConnection(connection -> {
                try (PreparedStatement insert = connection.prepareStatement(INSERT_ORDER)) {
                    long id = ORDER_IDS.incrementAndGet();
                    insert.setLong(1, id);
                    insert.setString(2, "customer-" + (id % 1000));
                    insert.setBigDecimal(3, BigDecimal.valueOf(id % 100_000, 2));
                    insert.setString(4, BenchDatabase.PAYLOAD);
                    insert.setObject(5, timestamp(db, Instant.now()));
                    insert.executeUpdate();
                    return id;
                }
            });
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
