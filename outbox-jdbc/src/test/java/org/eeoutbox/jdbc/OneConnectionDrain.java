package org.eeoutbox.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.engine.OutboxListener;
import org.eeoutbox.engine.OutboxProcessor;
import org.eeoutbox.engine.ProcessorSettings;
import org.eeoutbox.engine.StoreOutboxPublisher;
import org.eeoutbox.testkit.TestDatabase;

/**
 * The engine on {@link DataSourceTransactions} over a HikariCP pool of one connection to a real
 * database, so that every transaction runs on the same physical connection: for tests that count
 * what one transaction sends. Runs on the calling thread; not thread-safe. Close it.
 */
final class OneConnectionDrain implements AutoCloseable {

    /** The delivery type of the entries this class publishes and drains. */
    static final String TYPE = "counted";

    private final HikariDataSource pool;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final DataSourceTransactions transactions;
    private final JdbcOutboxStore store;

    /**
     * Opens the pool at {@code isolation} (a HikariCP name such as {@code TRANSACTION_READ_COMMITTED}),
     * creates the outbox table if missing and empties it.
     */
    OneConnectionDrain(TestDatabase database, String isolation) throws SQLException {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(database.jdbcUrl());
        config.setUsername(database.user());
        config.setPassword(database.password());
        config.setMaximumPoolSize(1);
        config.setTransactionIsolation(isolation);
        pool = new HikariDataSource(config);
        transactions = new DataSourceTransactions(pool);
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
            store = new JdbcOutboxStore(transactions, SqlDialect.detect(connection));
            OutboxSchema.verify(connection, store.dialect(), true);
            statement.execute("DELETE FROM outbox");
        }
    }

    /** Returns the pool, for plain borrows between transactions. */
    HikariDataSource pool() {
        return pool;
    }

    /** Returns the transactions on the pool. */
    DataSourceTransactions transactions() {
        return transactions;
    }

    /** Publishes {@code count} entries of {@value #TYPE} in one transaction. */
    void publish(int count) {
        StoreOutboxPublisher publisher = new StoreOutboxPublisher(store, StoreOutboxPublisher.DEFAULT_MAX_PAYLOAD_BYTES,
                Clock.systemUTC());
        transactions.inNewTransaction(() -> {
            for (int i = 0; i < count; i++) {
                publisher.publish(new OutboxMessage("t", "{}"), new TestDelivery(TYPE));
            }
            return null;
        });
    }

    /**
     * Drains in batches of {@code batchSize} with a deliverer that delivers everything; returns how
     * many. Its first claim scans from the oldest entry, every later one from a due time (the
     * full-scan interval is an hour).
     */
    int drain(int batchSize) {
        return new OutboxProcessor(store, transactions, List.of(RecordingDeliverer.alwaysDelivering(TYPE)),
                ProcessorSettings.DEFAULT.withBatchSize(batchSize).withFullScanInterval(Duration.ofHours(1)),
                new OutboxListener() { }, executor, Clock.systemUTC()).drain();
    }

    @Override
    public void close() {
        executor.shutdownNow();
        pool.close();
    }
}
