package org.eeoutbox.demo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;
import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;

/**
 * The database of the run: an embedded one from the test kit, or an external one given by JDBC
 * URL (through the test kit's external-server settings), with the login Payara uses.
 *
 * <p>Trap: MicroProfile Config treats an empty value as missing, so the embedded servers' empty
 * password cannot reach the {@code @DataSourceDefinition}. On an embedded server the service gets
 * a login of its own, {@value #USER}, with a password.
 *
 * @param description      what it is, for the user
 * @param kind             {@code postgresql}, {@code mysql} or {@code mariadb}
 * @param payaraUrl        the JDBC URL for the service
 * @param payaraUser       the service's user
 * @param payaraPassword   the service's password, never empty
 * @param dataSourceClass  the driver's DataSource class, for {@code @DataSourceDefinition(className)}
 * @param admin            a pooled DataSource for the demo's own queries (the test kit's login)
 */
public record DemoDatabase(String description, String kind, String payaraUrl, String payaraUser, String payaraPassword,
        String dataSourceClass, DataSource admin) {

    static final String USER = "orders";
    static final String PASSWORD = "orders-demo";

    /**
     * Starts (or connects to) the database {@code options} name.
     *
     * @throws IllegalStateException if it cannot be started or reached
     */
    static DemoDatabase open(DemoOptions options) throws SQLException {
        if (options.externalDatabase()) {
            return external(options.database(), options.dbUser().orElseThrow(), options.dbPassword().orElseThrow());
        }
        return open(options.databaseKind(), false);
    }

    /**
     * Connects to an external PostgreSQL, MySQL or MariaDB database, which the service uses with the same
     * login; call it before anything else in the JVM uses the test kit's database of that kind.
     *
     * @param password not empty (MicroProfile Config treats an empty value as missing)
     * @throws IllegalStateException if it cannot be reached
     */
    public static DemoDatabase external(String url, String user, String password) throws SQLException {
        String kind = DemoOptions.kindOfUrl(url);
        // The test kit's external-server settings: it then starts nothing and pools connections.
        System.setProperty("outbox.test." + kind + ".url", url);
        System.setProperty("outbox.test." + kind + ".user", user);
        System.setProperty("outbox.test." + kind + ".password", password);
        return open(kind, true);
    }

    private static DemoDatabase open(String kind, boolean external) throws SQLException {
        TestDatabase database = switch (kind) {
            case DemoOptions.MYSQL -> TestDatabases.mysql();
            case DemoOptions.MARIADB -> TestDatabases.mariadb();
            default -> TestDatabases.postgresql();
        };
        String dataSourceClass = switch (kind) {
            case DemoOptions.MYSQL -> "com.mysql.cj.jdbc.MysqlDataSource";
            case DemoOptions.MARIADB -> "org.mariadb.jdbc.MariaDbDataSource";
            default -> "org.postgresql.ds.PGSimpleDataSource";
        };
        String url = payaraUrl(database.jdbcUrl());
        if (external) {
            return new DemoDatabase(kind + " at " + database.jdbcUrl(), kind, url, database.user(),
                    database.password(), dataSourceClass, database.dataSource());
        }
        createLogin(database);
        String description = switch (kind) {
            case DemoOptions.MYSQL -> "embedded MySQL 8.0.15";
            case DemoOptions.MARIADB -> "embedded MariaDB 11.4.5";
            default -> "embedded PostgreSQL 17";
        };
        return new DemoDatabase(description + " at " + database.jdbcUrl(), kind, url, USER, PASSWORD, dataSourceClass,
                database.dataSource());
    }

    /**
     * Returns the outbox table's entries by status ({@code PENDING}, {@code DELIVERED},
     * {@code FAILED}); empty before the service created the table.
     */
    public Map<String, Long> outboxByStatus() {
        Map<String, Long> counts = new TreeMap<>();
        try (Connection connection = admin.getConnection(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT status, COUNT(*) FROM outbox GROUP BY status")) {
            while (rows.next()) {
                counts.put(rows.getString(1), rows.getLong(2));
            }
        } catch (SQLException e) {
            // No table yet.
        }
        return counts;
    }

    /**
     * Trap (measured in outbox-it): inside Payara Micro, Connector/J's default TLS handshake with
     * MySQL 8.0.15 fails ("Communications link failure"); the local server needs no TLS.
     */
    private static String payaraUrl(String url) {
        if (!url.startsWith("jdbc:mysql:") || url.contains("sslMode=")) {
            return url;
        }
        return url + (url.contains("?") ? "&" : "?") + "sslMode=DISABLED";
    }

    /** Creates the service's login on an embedded server, owning database {@code outbox}. */
    private static void createLogin(TestDatabase database) throws SQLException {
        try (Connection connection = database.dataSource().getConnection();
                Statement statement = connection.createStatement()) {
            if (!DemoOptions.POSTGRESQL.equals(database.name())) { // MySQL and MariaDB
                statement.execute("CREATE USER IF NOT EXISTS '" + USER + "'@'%' IDENTIFIED BY '" + PASSWORD + "'");
                statement.execute("GRANT ALL PRIVILEGES ON outbox.* TO '" + USER + "'@'%'");
                return;
            }
            try (PreparedStatement exists = connection.prepareStatement("SELECT 1 FROM pg_roles WHERE rolname = ?")) {
                exists.setString(1, USER);
                try (ResultSet row = exists.executeQuery()) {
                    if (!row.next()) {
                        statement.execute("CREATE ROLE " + USER + " LOGIN PASSWORD '" + PASSWORD + "'");
                    }
                }
            }
            // The database owner may create tables in schema public (PostgreSQL 15+).
            statement.execute("ALTER DATABASE outbox OWNER TO " + USER);
        }
    }
}
