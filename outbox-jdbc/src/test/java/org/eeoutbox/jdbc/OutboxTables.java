package org.eeoutbox.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.UUID;
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

    /**
     * Inserts a {@code PENDING} entry into a version 1 table with the columns that version has, as
     * the library of that version wrote it: today's insert also writes later columns.
     */
    static UUID insertAtVersionOne(TestDatabase database, SqlDialect dialect, String deliveryType, String payload,
                                   Instant due) throws SQLException {
        UUID id = UUID.randomUUID();
        String metadata = dialect instanceof PostgreSqlDialect ? "CAST(? AS json)" : "?";
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement statement = connection.prepareStatement("""
                     INSERT INTO outbox (id, message_type, payload, delivery_type, delivery_metadata, status, attempts,
                                         next_attempt_at, created_at, updated_at)
                     VALUES (?, 'test', ?, ?, %s, 'PENDING', 0, ?, ?, ?)""".formatted(metadata))) {
            dialect.setId(statement, 1, id);
            statement.setString(2, payload);
            statement.setString(3, deliveryType);
            statement.setString(4, "{}");
            dialect.setInstant(statement, 5, due);
            dialect.setInstant(statement, 6, due);
            dialect.setInstant(statement, 7, due);
            statement.executeUpdate();
        }
        return id;
    }
}
