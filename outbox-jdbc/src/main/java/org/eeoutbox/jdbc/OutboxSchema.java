package org.eeoutbox.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The outbox table's schema: its version marker, the check run at startup and the opt-in
 * creation.
 *
 * <p>The migrations live on the classpath at
 * {@code org/eeoutbox/jdbc/schema/<postgresql|mysql>/V<n>__create_outbox.sql}, usable by hand, by
 * Flyway and by Liquibase. Each marks the table with the comment {@code eeoutbox schema <n>}; the
 * library reads that comment to know what it runs against.
 */
public final class OutboxSchema {

    /** The schema version this library reads and writes. */
    public static final int VERSION = 1;

    private static final Logger LOG = System.getLogger(OutboxSchema.class.getName());
    private static final String MARKER = "eeoutbox schema ";

    private OutboxSchema() {
    }

    /**
     * Checks that the outbox table exists with this library's schema version; when it is missing
     * and {@code createIfMissing} is set, creates it. Runs on {@code connection} in auto-commit
     * mode (DDL commits implicitly on MySQL).
     *
     * @throws IllegalStateException if the table is missing (and may not be created), carries no
     *                               schema marker, or has another schema version; the message says
     *                               what was found and what to do
     * @throws SQLException          if the database fails
     */
    public static void verify(Connection connection, SqlDialect dialect, boolean createIfMissing) throws SQLException {
        String comment = dialect.readTableComment(connection);
        if (comment == null) {
            if (!createIfMissing) {
                throw new IllegalStateException("The outbox table does not exist. Create it with the migration "
                        + dialect.migrationResource(VERSION) + " (by hand, Flyway or Liquibase), or set "
                        + "outbox.schema.create=true to create it at startup.");
            }
            create(connection, dialect);
            return;
        }
        if (!comment.startsWith(MARKER)) {
            throw new IllegalStateException("A table named outbox exists but is not an EE Outbox table of a known "
                    + "schema version (its comment is '" + comment + "', expected '" + MARKER + VERSION
                    + "'). Refusing to use it.");
        }
        String version = comment.substring(MARKER.length()).trim();
        if (!version.equals(Integer.toString(VERSION))) {
            throw new IllegalStateException("The outbox table has schema version " + version + "; this library "
                    + "supports version " + VERSION + ". Use a library version matching the schema.");
        }
    }

    private static void create(Connection connection, SqlDialect dialect) throws SQLException {
        String resource = dialect.migrationResource(VERSION);
        try (Statement statement = connection.createStatement()) {
            for (String sql : statements(resource)) {
                statement.execute(sql);
            }
        }
        LOG.log(Level.INFO, "Created the outbox table from {0}", resource);
    }

    /** Reads a migration and splits it into statements: {@code --} comment lines dropped, split on {@code ;}. */
    static List<String> statements(String resource) {
        String script;
        try (InputStream in = OutboxSchema.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Migration not found on the classpath: " + resource);
            }
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("Could not read the migration " + resource, e);
        }
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : script.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (trimmed.endsWith(";")) {
                String sql = current.toString().strip();
                statements.add(sql.substring(0, sql.length() - 1));
                current.setLength(0);
            }
        }
        return statements;
    }
}
