package org.eeoutbox.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Lends the connection of the transaction current on the calling thread to the store.
 *
 * <p>Inside a Jakarta EE server this is the container DataSource's connection, enlisted in the
 * JTA transaction; standalone it is the connection bound by {@link DataSourceTransactions}.
 * Implementations are thread-safe.
 */
public interface ConnectionProvider {

    /**
     * Runs {@code work} with the current transaction's connection. The work must not commit, roll
     * back, change auto-commit or close the connection.
     *
     * @throws IllegalStateException if no transaction is active on this thread; nothing runs
     * @throws SQLException          what {@code work} or the DataSource threw
     */
    <T> T withConnection(SqlFunction<T> work) throws SQLException;

    /** Work on a connection. */
    @FunctionalInterface
    interface SqlFunction<T> {
        T apply(Connection connection) throws SQLException;
    }
}
