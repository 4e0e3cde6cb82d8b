package org.eeoutbox.it.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.eeoutbox.testkit.TestDatabase;

/**
 * The database login that Payara uses, published as {@link ItConfig#DB_USER} and
 * {@link ItConfig#DB_PASSWORD}.
 *
 * <p>Trap (measured): MicroProfile Config treats an empty value as absent, so with the embedded
 * servers' empty password {@code password = "${MPCONFIG=it.db.password}"} stays the literal text
 * {@code ${MPCONFIG=it.db.password}} (MySQL: "Access denied ... using password: YES"). Hence a
 * database whose password is empty gets a login {@value #USER} / {@value #PASSWORD} with every
 * privilege (a PostgreSQL superuser; on MySQL all privileges on all schemas), created if missing;
 * a database with a password is used as configured.
 *
 * @param user     the user name
 * @param password the password, never empty
 */
record PayaraLogin(String user, String password) {

    static final String USER = "outbox_it";
    static final String PASSWORD = "outbox-it";

    /**
     * Returns the login for {@code database}, creating {@value #USER} if its password is empty.
     *
     * @throws IllegalStateException if the login cannot be created
     */
    static PayaraLogin of(TestDatabase database) {
        if (!database.password().isEmpty()) {
            return new PayaraLogin(database.user(), database.password());
        }
        try (Connection connection = database.dataSource().getConnection();
                Statement statement = connection.createStatement()) {
            if ("mysql".equals(database.name())) {
                statement.execute("CREATE USER IF NOT EXISTS '" + USER + "'@'%' IDENTIFIED BY '" + PASSWORD + "'");
                statement.execute("GRANT ALL PRIVILEGES ON *.* TO '" + USER + "'@'%'");
            } else if (!roleExists(connection)) {
                statement.execute("CREATE ROLE " + USER + " LOGIN SUPERUSER PASSWORD '" + PASSWORD + "'");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot create the login " + USER + " on " + database
                    + ": its password is empty, which MP Config cannot pass to Payara", e);
        }
        return new PayaraLogin(USER, PASSWORD);
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
