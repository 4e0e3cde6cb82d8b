package org.eeoutbox.it.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.eeoutbox.testkit.TestDatabase;

/**
 * The database login that the server's DataSource uses.
 *
 * <p>The embedded test databases have an empty password, which no production DataSource has and
 * which servers may treat as "not set" (measured on Payara: MicroProfile Config drops an empty
 * value). Hence a database whose password is empty gets a login {@value #USER} / {@value #PASSWORD}
 * with every privilege (a PostgreSQL superuser; on MySQL and MariaDB all privileges on all schemas), created
 * if missing; a database with a password is used as configured.
 *
 * <p>The password is checked: MySQL always checks it; the embedded PostgreSQL trusts every local
 * login, so a line that demands the password of {@value #USER} is put first in its
 * {@code pg_hba.conf}. So a DataSource with a wrong password fails to connect on both databases,
 * as in production ({@code DataSourceFromConfigIT} relies on it).
 *
 * @param user     the user name
 * @param password the password, never empty
 */
record ServerLogin(String user, String password) {

    static final String USER = "outbox_it";
    static final String PASSWORD = "outbox-it";

    /**
     * Returns the login for {@code database}, creating {@value #USER} if its password is empty.
     *
     * @throws IllegalStateException if the login cannot be created
     */
    static ServerLogin of(TestDatabase database) {
        if (!database.password().isEmpty()) {
            return new ServerLogin(database.user(), database.password());
        }
        try (Connection connection = database.dataSource().getConnection();
                Statement statement = connection.createStatement()) {
            if (!"postgresql".equals(database.name())) { // MySQL and MariaDB
                statement.execute("CREATE USER IF NOT EXISTS '" + USER + "'@'%' IDENTIFIED BY '" + PASSWORD + "'");
                statement.execute("GRANT ALL PRIVILEGES ON *.* TO '" + USER + "'@'%'");
            } else {
                if (!roleExists(connection)) {
                    statement.execute("CREATE ROLE " + USER + " LOGIN SUPERUSER PASSWORD '" + PASSWORD + "'");
                }
                demandPassword(statement);
            }
            awaitWrongPasswordRefused(database);
        } catch (SQLException | IOException e) {
            throw new IllegalStateException("Cannot create the login " + USER + " on " + database
                    + " for the server's DataSource", e);
        }
        return new ServerLogin(USER, PASSWORD);
    }

    /**
     * Puts a line that demands {@value #USER}'s password before PostgreSQL's {@code trust} lines and
     * reloads the configuration; the file is the server's own, on this machine (embedded only).
     */
    private static void demandPassword(Statement statement) throws SQLException, IOException {
        Path hba;
        try (ResultSet row = statement.executeQuery("SHOW hba_file")) {
            row.next();
            hba = Path.of(row.getString(1));
        }
        String line = "host all " + USER + " all scram-sha-256";
        String current = Files.readString(hba);
        if (!current.startsWith(line)) {
            Files.writeString(hba, line + "\n" + current);
            statement.execute("SELECT pg_reload_conf()");
        }
    }

    /**
     * Waits until the database refuses {@value #USER} with a wrong password (PostgreSQL applies a
     * reloaded {@code pg_hba.conf} a moment after {@code pg_reload_conf()}).
     *
     * @throws IllegalStateException if it still accepts a wrong password after 10 s
     */
    private static void awaitWrongPasswordRefused(TestDatabase database) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            try (Connection ignored = DriverManager.getConnection(database.jdbcUrl(), USER, "not-" + PASSWORD)) {
                Thread.sleep(100);
            } catch (SQLException refused) {
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while checking the login " + USER, e);
            }
        }
        throw new IllegalStateException(database + " accepts " + USER + " with a wrong password");
    }

    private static boolean roleExists(Connection connection) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT 1 FROM pg_roles WHERE rolname = ?")) {
            select.setString(1, USER);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next();
            }
        }
    }
}
