package org.eeoutbox.testkit;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import javax.sql.DataSource;

/** A {@link TestDatabase} backed by a HikariCP pool, owning the server it runs on (if any). */
final class PooledTestDatabase implements TestDatabase {

    private static final System.Logger LOG = System.getLogger(PooledTestDatabase.class.getName());

    private final String name;
    private final String jdbcUrl;
    private final String user;
    private final String password;
    private final AutoCloseable server;
    private final HikariDataSource dataSource;

    /**
     * Opens the pool (it connects once, so an unreachable database fails here).
     *
     * @param server stopped by {@link #close()} after the pool; a no-op for an external server
     */
    PooledTestDatabase(String name, String jdbcUrl, String user, String password, AutoCloseable server) {
        this.name = name;
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.password = password;
        this.server = server;
        HikariConfig config = new HikariConfig();
        config.setPoolName("outbox-test-" + name);
        config.setJdbcUrl(jdbcUrl);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(16);
        config.setMinimumIdle(2);
        this.dataSource = new HikariDataSource(config);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String jdbcUrl() {
        return jdbcUrl;
    }

    @Override
    public String user() {
        return user;
    }

    @Override
    public String password() {
        return password;
    }

    @Override
    public DataSource dataSource() {
        return dataSource;
    }

    @Override
    public void dropTables(String... tables) {
        if (tables.length == 0) {
            return;
        }
        // MySQL and MariaDB accept and ignore CASCADE. MySQL drops the listed tables in an order
        // their foreign keys allow, MariaDB in the order given: it needs the checks off.
        String sql = "DROP TABLE IF EXISTS " + String.join(", ", tables) + " CASCADE";
        boolean mysqlFamily = !name.equals("postgresql");
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            if (mysqlFamily) {
                statement.execute("SET foreign_key_checks = 0");
            }
            try {
                statement.execute(sql);
            } finally {
                if (mysqlFamily) {
                    statement.execute("SET foreign_key_checks = 1");
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not drop " + Arrays.toString(tables) + " on " + name, e);
        }
    }

    @Override
    public long queryForLong(String sql) {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet resultSet = statement.executeQuery(sql)) {
            if (!resultSet.next()) {
                throw new IllegalStateException("No row from " + sql + " on " + name);
            }
            return resultSet.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not run " + sql + " on " + name, e);
        }
    }

    /** Closes the pool, then stops the server; logs rather than throws (runs in a shutdown hook). */
    void close() {
        dataSource.close();
        try {
            server.close();
        } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, "Could not stop the " + name + " server", e);
        }
    }

    @Override
    public String toString() {
        return name + " " + jdbcUrl;
    }
}
