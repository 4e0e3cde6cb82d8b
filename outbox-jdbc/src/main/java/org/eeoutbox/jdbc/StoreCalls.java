package org.eeoutbox.jdbc;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.eeoutbox.spi.OutboxStoreException;

/** What the JDBC stores share: running an operation on the current connection, and batch counts. */
final class StoreCalls {

    private StoreCalls() {
    }

    /**
     * Runs {@code work} on the current transaction's connection.
     *
     * @throws OutboxStoreException naming {@code operation} when the database fails
     */
    static <T> T run(ConnectionProvider connections, String operation, ConnectionProvider.SqlFunction<T> work) {
        try {
            return connections.withConnection(work);
        } catch (SQLException e) {
            throw new OutboxStoreException("Could not " + operation + ": " + e.getMessage(), e);
        }
    }

    /** Runs the statement's batch and returns the rows it changed. */
    static int executeBatch(PreparedStatement statement) throws SQLException {
        int changed = 0;
        for (int count : statement.executeBatch()) {
            // MySQL's rewritten batches report SUCCESS_NO_INFO (-2) per row.
            changed += count == PreparedStatement.SUCCESS_NO_INFO ? 1 : count;
        }
        return changed;
    }
}
