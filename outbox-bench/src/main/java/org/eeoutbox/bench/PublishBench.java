package org.eeoutbox.bench;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
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
 */
final class PublishBench {

    private static final String INSERT_ORDER =
            "INSERT INTO bench_order (id, customer, amount, details, created_at) VALUES (?, ?, ?, ?, ?)";
    private static final AtomicLong ORDER_IDS = new AtomicLong();

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
            }
        }
    }

    /** Runs {@code total} business transactions on {@code workers} threads; returns how many ran. */
    private static long business(BenchDatabase db, DataSourceTransactions tx, OutboxPublisher publisher, int publishes,
                                 int total, int workers, Executor executor) throws Exception {
        AtomicInteger remaining = new AtomicInteger(total);
        return Runner.inParallel(workers, executor, () -> {
            long done = 0;
            while (remaining.getAndDecrement() > 0) {
                tx.inNewTransaction(() -> {
                    insertOrder(db, tx);
                    for (int i = 0; i < publishes; i++) {
                        publisher.publish(new OutboxMessage("order.created", BenchDatabase.PAYLOAD),
                                HttpDelivery.to("notification-service").path("/webhooks/orders").build());
                    }
                    return null;
                });
                done++;
            }
            return done;
        });
    }

    private static void insertOrder(BenchDatabase db, DataSourceTransactions tx) {
        try {
            tx.withConnection(connection -> {
                try (PreparedStatement insert = connection.prepareStatement(INSERT_ORDER)) {
                    long id = ORDER_IDS.incrementAndGet();
                    insert.setLong(1, id);
                    insert.setString(2, "customer-" + (id % 1000));
                    insert.setBigDecimal(3, BigDecimal.valueOf(id % 100_000, 2));
                    insert.setString(4, BenchDatabase.PAYLOAD);
                    Instant now = Instant.now();
                    insert.setObject(5, db.isPostgresql() ? now.atOffset(ZoneOffset.UTC)
                            : LocalDateTime.ofInstant(now, ZoneOffset.UTC));
                    return insert.executeUpdate();
                }
            });
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
