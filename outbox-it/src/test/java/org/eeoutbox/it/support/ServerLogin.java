package org.eeoutbox.it.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
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
            } else if (!roleExists(connection)) {
                statement.execute("CREATE ROLE " + USER + " LOGIN SUPERUSER PASSWORD '" + PASSWORD + "'");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot create the login " + USER + " on " + database
                    + " for the server's DataSource", e);
        }
        return new ServerLogin(USER, PASSWORD);
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
