package org.eeoutbox.testkit;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * A real database for tests: an embedded server started once per JVM, or an external server given
 * by configuration (see {@link TestDatabases}).
 *
 * <p>Instances are shared by every test of the JVM and are safe for concurrent use. Tests must not
 * close the {@link #dataSource()}; a JVM shutdown hook closes it and stops the embedded server.
 */
public interface TestDatabase {

    /** Returns {@code "postgresql"} or {@code "mysql"}. */
    String name();

    /** Returns the JDBC URL of the test database ({@code outbox} on the embedded servers). */
    String jdbcUrl();

    /** Returns the user {@link #dataSource()} logs in as. */
    String user();

    /** Returns the password {@link #dataSource()} logs in with; empty on the embedded servers. */
    String password();

    /**
     * Returns the pooled DataSource shared by all tests of the JVM (HikariCP, at most 16
     * connections, auto-commit on by default). Connections must be closed after use.
     */
    DataSource dataSource();

    /**
     * Drops the given tables if they exist, in one statement, together with anything that depends on
     * them (PostgreSQL {@code CASCADE}). Does nothing when no table is given.
     *
     * @param tables unquoted table names, trusted (they are pasted into the statement)
     * @throws IllegalStateException if the statement fails
     */
    void dropTables(String... tables);

    /**
     * Drops the outbox's tables (schema version 2: {@code outbox}, the tables that refer to it and
     * {@code outbox_key_sequence}) if they exist, so that the next schema check creates them anew.
     *
     * @throws IllegalStateException if the statement fails
     */
    default void dropOutboxTables() {
        dropTables("outbox_attempt", "outbox_pause", "outbox_key_sequence", "outbox");
    }

    /**
     * Runs a query outside any transaction and returns the first column of its single row, for
     * assertions such as {@code SELECT COUNT(*) FROM outbox WHERE status = 'PENDING'}.
     *
     * @throws IllegalStateException if the query fails or returns no row
     */
    long queryForLong(String sql);

    /**
     * Runs a statement outside any transaction (auto-commit), for setting up a test.
     *
     * @throws IllegalStateException naming the statement if it fails
     */
    default void execute(String sql) {
        try (Connection connection = dataSource().getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }
}
