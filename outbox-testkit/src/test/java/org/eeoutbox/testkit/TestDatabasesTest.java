package org.eeoutbox.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class TestDatabasesTest {

    @Test
    void postgresqlIsVersion17() throws SQLException {
        assertTrue(version(TestDatabases.postgresql()).startsWith("PostgreSQL 17."));
    }

    @Test
    void mysqlIsVersion80() throws SQLException {
        assertTrue(version(TestDatabases.mysql()).startsWith("8.0."));
    }

    @Test
    void mysqlIsStartedOnce() {
        assertSame(TestDatabases.mysql(), TestDatabases.mysql());
    }

    @Test
    void mariadbIsVersion114ThroughMariaDbConnectorJ() throws SQLException {
        assertTrue(version(TestDatabases.mariadb()).startsWith("11.4."));
        try (Connection connection = TestDatabases.mariadb().dataSource().getConnection()) {
            assertEquals("MariaDB", connection.getMetaData().getDatabaseProductName());
        }
    }

    @Test
    void mysqlRoundTripsDatetime6() throws SQLException {
        roundTripsDatetime6(TestDatabases.mysql());
    }

    @Test
    void mariadbRoundTripsDatetime6() throws SQLException {
        roundTripsDatetime6(TestDatabases.mariadb());
    }

    private static void roundTripsDatetime6(TestDatabase database) throws SQLException {
        database.dropTables("testkit_datetime");
        LocalDateTime value = LocalDateTime.of(2024, 2, 29, 23, 59, 58, 123_456_000);
        try (Connection connection = database.dataSource().getConnection()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE testkit_datetime (at DATETIME(6) NOT NULL)");
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO testkit_datetime VALUES (?)")) {
                insert.setObject(1, value);
                insert.executeUpdate();
            }
            try (Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery("SELECT at FROM testkit_datetime")) {
                assertTrue(rows.next());
                assertEquals(value, rows.getObject(1, LocalDateTime.class));
            }
        }
        database.dropTables("testkit_datetime");
    }

    @Test
    void dropTablesDropsTablesWithForeignKeys() throws SQLException {
        for (TestDatabase database : new TestDatabase[] {TestDatabases.postgresql(), TestDatabases.mysql(),
                TestDatabases.mariadb()}) {
            database.dropTables("testkit_child", "testkit_parent");
            try (Connection connection = database.dataSource().getConnection();
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE testkit_parent (id INT PRIMARY KEY)");
                statement.execute("CREATE TABLE testkit_child (id INT PRIMARY KEY,"
                        + " parent_id INT, FOREIGN KEY (parent_id) REFERENCES testkit_parent (id))");
            }
            database.dropTables("testkit_parent", "testkit_child", "testkit_missing");
            try (Connection connection = database.dataSource().getConnection();
                    ResultSet tables = connection.getMetaData().getTables(null, null, "testkit_%", null)) {
                assertFalse(tables.next(), database.name());
            }
        }
    }

    private static String version(TestDatabase database) throws SQLException {
        try (Connection connection = database.dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT version()")) {
            assertTrue(rows.next());
            return rows.getString(1);
        }
    }
}
