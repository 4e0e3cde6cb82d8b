package org.eeoutbox.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.eeoutbox.jdbc.ConnectionProvider;
import org.eeoutbox.spi.OutboxStoreException;
import org.eeoutbox.spi.TransactionRunner;

/**
 * The leanest resource-local transaction a hand-written loop would use: borrow a connection from a
 * pool already configured with auto-commit off and READ COMMITTED, bind it to the thread, run the
 * work, commit (or roll back), return it. Unlike the library's {@code DataSourceTransactions} it
 * sends no session statements per transaction.
 *
 * <p>The publish benchmark runs its business transactions through it (a stand-in for the
 * container's JTA transaction, which the publisher joins); the {@code --runner=lean} diagnostic
 * runs the engine on it, to measure what the library's runner costs.
 */
final class PooledTransactions implements TransactionRunner, ConnectionProvider {

    private final DataSource pool;
    private final ThreadLocal<Connection> current = new ThreadLocal<>();

    /** @param pool a pool whose connections come with auto-commit off at READ COMMITTED */
    PooledTransactions(DataSource pool) {
        this.pool = pool;
    }

    @Override
    public <T> T inNewTransaction(Supplier<T> work) {
        try (Connection connection = pool.getConnection()) {
            current.set(connection);
            try {
                T result = work.get();
                connection.commit();
                return result;
            } catch (RuntimeException | Error e) {
                connection.rollback();
                throw e;
            } finally {
                current.remove();
            }
        } catch (SQLException e) {
            throw new OutboxStoreException("Transaction failed: " + e.getMessage(), e);
        }
    }

    @Override
    public <T> T withConnection(SqlFunction<T> work) throws SQLException {
        Connection connection = current.get();
        if (connection == null) {
            throw new IllegalStateException("No transaction on this thread");
        }
        return work.apply(connection);
    }
}
