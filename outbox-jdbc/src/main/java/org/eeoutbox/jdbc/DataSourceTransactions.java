package org.eeoutbox.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.eeoutbox.spi.OutboxStoreException;
import org.eeoutbox.spi.TransactionRunner;

/**
 * Resource-local transactions on a {@link DataSource}, for use without JTA: standalone
 * applications, tests and benchmarks.
 *
 * <p>{@link #inNewTransaction} borrows a connection, turns auto-commit off and sets READ COMMITTED
 * where the connection is not so already (restoring auto-commit afterwards),
 * binds the connection to the calling thread for the duration of the work (so a store using this
 * object as its {@link ConnectionProvider} joins the transaction), then commits or rolls back and
 * returns the connection. A transaction already bound on the thread is suspended meanwhile and
 * resumed afterwards. Thread-safe; the binding is per instance and per thread.
 *
 * <p>Asking a connection its isolation costs a round trip on PostgreSQL ({@code SHOW TRANSACTION
 * ISOLATION LEVEL}) and on MySQL, so it is asked once per physical connection: one found at READ
 * COMMITTED is remembered (by the connection the pool's handle {@linkplain Connection#unwrap
 * unwraps} to, weakly) and not asked again. One found at another level is set to READ COMMITTED
 * and asked again next time, because pools such as HikariCP restore their configured level when
 * the connection is returned: a DataSource whose default is not READ COMMITTED keeps paying the
 * two round trips per transaction, so configure the pool for READ COMMITTED. The one assumption:
 * a physical connection found at READ COMMITTED stays there, that is, whoever changes its level
 * (other users of the pool, or SQL such as {@code SET SESSION CHARACTERISTICS} in the work given
 * here) restores it before the connection goes back to the pool. HikariCP restores a level changed
 * with {@link Connection#setTransactionIsolation}, not one changed by SQL.
 */
public final class DataSourceTransactions implements TransactionRunner, ConnectionProvider {

    private final DataSource dataSource;
    private final ThreadLocal<Connection> current = new ThreadLocal<>();
    /** Physical connections found at READ COMMITTED; weak keys, so closed connections drop out. */
    private final Set<Connection> readCommitted = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

    public DataSourceTransactions(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    @Override
    public <T> T inNewTransaction(Supplier<T> work) {
        Connection suspended = current.get();
        try (Connection connection = dataSource.getConnection()) {
            // Session statements only where needed: a pool configured for READ COMMITTED and
            // manual commit costs no round trip per transaction.
            boolean autoCommit = connection.getAutoCommit();
            if (autoCommit) {
                connection.setAutoCommit(false);
            }
            ensureReadCommitted(connection);
            current.set(connection);
            try {
                T result = work.get();
                connection.commit();
                return result;
            } catch (RuntimeException | Error e) {
                rollback(connection, e);
                throw e;
            } catch (SQLException e) {
                rollback(connection, e);
                throw new OutboxStoreException("Commit failed; the transaction was rolled back", e);
            } finally {
                current.set(suspended);
                if (autoCommit) {
                    connection.setAutoCommit(true);
                }
            }
        } catch (SQLException e) {
            throw new OutboxStoreException("Could not begin or end a transaction on the DataSource", e);
        } finally {
            if (suspended == null) {
                current.remove();
            }
        }
    }

    @Override
    public <T> T withConnection(SqlFunction<T> work) throws SQLException {
        Connection connection = current.get();
        if (connection == null) {
            throw new IllegalStateException("No transaction is active on this thread: run the work inside "
                    + "DataSourceTransactions.inNewTransaction(...)");
        }
        return work.apply(connection);
    }

    /**
     * Sets READ COMMITTED unless the physical connection behind {@code connection} was found at it
     * before; remembers it when found so now.
     */
    private void ensureReadCommitted(Connection connection) throws SQLException {
        Connection physical = connection.isWrapperFor(Connection.class) ? connection.unwrap(Connection.class) : connection;
        if (readCommitted.contains(physical)) {
            return;
        }
        if (connection.getTransactionIsolation() == Connection.TRANSACTION_READ_COMMITTED) {
            readCommitted.add(physical);
        } else {
            connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        }
    }

    private static void rollback(Connection connection, Throwable cause) {
        try {
            connection.rollback();
        } catch (SQLException rollbackFailure) {
            cause.addSuppressed(rollbackFailure);
        }
    }
}
