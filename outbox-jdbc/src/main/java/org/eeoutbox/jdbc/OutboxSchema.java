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
 * creation and upgrade.
 *
 * <p>The migrations live on the classpath at
 * {@code org/eeoutbox/jdbc/schema/<postgresql|mysql|mariadb>/V<n>__<name>.sql} (see {@link #migrationFile}),
 * usable by hand, by Flyway and by Liquibase: {@code V1} creates the table, each later one
 * upgrades the table of the version before it, rows kept. Each leaves the table with the comment
 * {@code eeoutbox schema <n>}; the library reads that comment to know what it runs against.
 */
public final class OutboxSchema {

    /** The schema version this library reads and writes. */
    public static final int VERSION = 2;

    /** The migration files, version 1 first: each brings the table to the version of its index + 1. */
    private static final List<String> MIGRATIONS = List.of("V1__create_outbox.sql", "V2__operations.sql");

    private static final Logger LOG = System.getLogger(OutboxSchema.class.getName());
    private static final String MARKER = "eeoutbox schema ";

    private OutboxSchema() {
    }

    /**
     * Returns the file name of the migration that brings the table to {@code version}, such as
     * {@code V2__operations.sql}.
     *
     * @throws IllegalArgumentException if there is no such version
     */
    public static String migrationFile(int version) {
        if (version < 1 || version > MIGRATIONS.size()) {
            throw new IllegalArgumentException("No outbox schema version " + version + "; versions are 1 to "
                    + MIGRATIONS.size());
        }
        return MIGRATIONS.get(version - 1);
    }

    /**
     * Checks that the outbox table exists with this library's schema version. When it is missing
     * or older and {@code migrate} is set, applies the missing migrations, under a database lock
     * so that instances starting together apply each one once. Runs on {@code connection}, which
     * must be in auto-commit mode and in no transaction; leaves it in auto-commit mode.
     *
     * @throws IllegalStateException if the table is missing or older (and may not be migrated),
     *                               carries no schema marker, or has a newer schema version; the
     *                               message says what was found and names the migrations to apply
     * @throws SQLException          if the database fails, a migration included
     */
    public static void verify(Connection connection, SqlDialect dialect, boolean migrate) throws SQLException {
        int version = version(dialect.readTableComment(connection));
        if (version == VERSION) {
            return;
        }
        if (!migrate) {
            throw new IllegalStateException(missingMigrations(dialect, version));
        }
        dialect.withSchemaLock(connection, locked -> {
            // Another instance may have migrated while this one waited for the lock.
            for (int next = version(dialect.readTableComment(locked)) + 1; next <= VERSION; next++) {
                apply(locked, dialect, next);
            }
            return null;
        });
    }

    /**
     * The version of the table with the comment {@code comment}: 0 for no table; refuses a table
     * of unknown origin or of a newer version.
     */
    private static int version(String comment) {
        if (comment == null) {
            return 0;
        }
        String version = comment.startsWith(MARKER) ? comment.substring(MARKER.length()).trim() : "";
        if (!version.matches("[1-9][0-9]{0,3}")) {
            throw new IllegalStateException("A table named outbox exists but is not an EE Outbox table of a known "
                    + "schema version (its comment is '" + comment + "', expected '" + MARKER + VERSION
                    + "'). Refusing to use it.");
        }
        int number = Integer.parseInt(version);
        if (number > VERSION) {
            throw new IllegalStateException("The outbox table has schema version " + number + "; this library "
                    + "supports version " + VERSION + ". Use a library version matching the schema.");
        }
        return number;
    }

    private static String missingMigrations(SqlDialect dialect, int version) {
        List<String> resources = new ArrayList<>();
        for (int next = version + 1; next <= VERSION; next++) {
            resources.add(dialect.migrationResource(next));
        }
        String apply = "(by hand, Flyway or Liquibase), or set outbox.schema.create=true to apply "
                + (resources.size() == 1 ? "it" : "them") + " at startup.";
        if (version == 0) {
            return "The outbox table does not exist. Create it with the migration" + (resources.size() == 1 ? " " : "s ")
                    + String.join(" then ", resources) + " " + apply;
        }
        return "The outbox table has schema version " + version + "; this library needs version " + VERSION
                + ". Upgrade it with the migration" + (resources.size() == 1 ? " " : "s ")
                + String.join(" then ", resources) + " " + apply;
    }

    private static void apply(Connection connection, SqlDialect dialect, int version) throws SQLException {
        String resource = dialect.migrationResource(version);
        try (Statement statement = connection.createStatement()) {
            for (String sql : statements(resource)) {
                statement.execute(sql);
            }
        }
        LOG.log(Level.INFO, "Applied the outbox migration {0}", resource);
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
