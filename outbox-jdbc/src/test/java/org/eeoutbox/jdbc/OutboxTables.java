package org.eeoutbox.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.eeoutbox.testkit.TestDatabase;

/** The outbox tables of a test database, dropped and created anew by the library's own migrations. */
final class OutboxTables {

    private OutboxTables() {
    }

    /**
     * Drops the outbox tables and creates them at this library's schema version, as
     * {@code outbox.schema.create=true} does.
     *
     * @return the database's dialect
     */
    static SqlDialect recreate(TestDatabase database) throws SQLException {
        database.dropOutboxTables();
        try (Connection connection = database.dataSource().getConnection()) {
            SqlDialect dialect = SqlDialect.detect(connection);
            OutboxSchema.verify(connection, dialect, true);
            return dialect;
        }
    }

    /** Drops the outbox tables and creates them at schema version 1, as an upgrade finds them. */
    static void recreateAtVersionOne(TestDatabase database, SqlDialect dialect) throws SQLException {
        database.dropOutboxTables();
        try (Connection connection = database.dataSource().getConnection();
             Statement statement = connection.createStatement()) {
            for (String sql : OutboxSchema.statements(dialect.migrationResource(1))) {
                statement.execute(sql);
            }
        }
    }
}
