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
     * Runs the checks on one connection of {@code dataSource}, outside any transaction.
     *
     * @param createSchema whether a missing outbox table may be created
     * @return the dialect of the database
     * @throws IllegalStateException if a check fails; the message names the fix
     * @throws SQLException          if the database cannot be reached
     */
    public static SqlDialect run(DataSource dataSource, boolean createSchema) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            SqlDialect dialect = SqlDialect.detect(connection);
            int isolation = connection.getTransactionIsolation();
            if (isolation != Connection.TRANSACTION_READ_COMMITTED) {
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
