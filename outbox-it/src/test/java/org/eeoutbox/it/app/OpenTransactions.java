package org.eeoutbox.it.app;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Counts the transactions open on the database other than the caller's own connection: a
 * connection of the outbox still holding a claim would show here. Used in-container by
 * {@link Orders} and from the test JVM.
 */
public final class OpenTransactions {

    private OpenTransactions() {
    }

    /** Returns how many transactions other than {@code connection}'s are open on its database. */
    public static long others(Connection connection) throws SQLException {
        String sql = connection.getMetaData().getDatabaseProductName().toLowerCase().contains("postgres")
                ? "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() "
                        + "AND state LIKE 'idle in transaction%' AND pid <> pg_backend_pid()"
                : "SELECT COUNT(*) FROM information_schema.innodb_trx WHERE trx_mysql_thread_id <> CONNECTION_ID()";
        try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }
}
