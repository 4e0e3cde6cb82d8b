package org.eeoutbox.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The checks run once at startup against the DataSource the outbox will use, each failing with
 * a message that says what was found and how to fix it: a supported database, READ COMMITTED,
 * server settings the dialect needs, and the outbox table of this library's schema version.
 */
public final class DatabaseCheck {

    private static final Map<Integer, String> ISOLATION_NAMES = Map.of(
            Connection.TRANSACTION_NONE, "NONE",
            Connection.TRANSACTION_READ_UNCOMMITTED, "READ UNCOMMITTED",
            Connection.TRANSACTION_READ_COMMITTED, "READ COMMITTED",
            Connection.TRANSACTION_REPEATABLE_READ, "REPEATABLE READ",
            Connection.TRANSACTION_SERIALIZABLE, "SERIALIZABLE");

    private DatabaseCheck() {
    }

    /**
     * The checks for a store that joins the application's JTA transactions: the isolation of
     * those transactions is the DataSource's, so it must be READ COMMITTED.
     *
     * @param createSchema whether a missing outbox table may be created
     * @return the dialect of the database
     * @throws IllegalStateException if a check fails; the message names the fix
     * @throws SQLException          if the database cannot be reached
     */
    public static SqlDialect forJtaTransactions(DataSource dataSource, boolean createSchema) throws SQLException {
        return run(dataSource, createSchema, true);
    }

    /**
     * The checks for a store used with {@link DataSourceTransactions}, which sets READ COMMITTED
     * on each transaction itself, so the DataSource's default isolation does not matter.
     *
     * @param createSchema whether a missing outbox table may be created
     * @return the dialect of the database
     * @throws IllegalStateException if a check fails; the message names the fix
     * @throws SQLException          if the database cannot be reached
     */
    public static SqlDialect forLocalTransactions(DataSource dataSource, boolean createSchema) throws SQLException {
        return run(dataSource, createSchema, false);
    }

    private static SqlDialect run(DataSource dataSource, boolean createSchema, boolean requireReadCommitted)
            throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            SqlDialect dialect = SqlDialect.detect(connection);
            int isolation = connection.getTransactionIsolation();
            if (requireReadCommitted && isolation != Connection.TRANSACTION_READ_COMMITTED) {
                throw new IllegalStateException("The outbox DataSource runs at "
                        + ISOLATION_NAMES.getOrDefault(isolation, "level " + isolation)
                        + " isolation; the outbox needs READ COMMITTED (the claim relies on it). Set it on the "
                        + "DataSource: @DataSourceDefinition(isolationLevel = Connection.TRANSACTION_READ_COMMITTED), "
                        + "WildFly <transaction-isolation>TRANSACTION_READ_COMMITTED</transaction-isolation>, "
                        + "Open Liberty <dataSource isolationLevel=\"TRANSACTION_READ_COMMITTED\">.");
            }
            dialect.verifyServerSettings(connection);
            OutboxSchema.verify(connection, dialect, createSchema);
            return dialect;
        }
    }
}
