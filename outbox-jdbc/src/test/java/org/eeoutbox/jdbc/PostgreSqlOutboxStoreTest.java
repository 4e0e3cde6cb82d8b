package org.eeoutbox.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("[postgresql] outbox store contract")
class PostgreSqlOutboxStoreTest extends AbstractOutboxStoreTest {

    @Override
    protected TestDatabase database() {
        return TestDatabases.postgresql();
    }

    @Override
    protected String nonUtcSessionZoneSql() {
        return "SET LOCAL TIME ZONE 'America/Los_Angeles'";
    }

    @Override
    protected String lockWaitsSql() {
        return "SELECT COUNT(*) FROM pg_locks WHERE NOT granted";
    }

    @Override
    protected List<String> applicationUserSql(String user, String password) {
        return List.of("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '" + user + "') THEN "
                        + "CREATE ROLE " + user + " LOGIN PASSWORD '" + password + "'; END IF; END $$",
                "GRANT SELECT, INSERT, UPDATE, DELETE ON outbox, outbox_attempt, outbox_pause, outbox_key_sequence TO "
                        + user);
    }

    /** Also years the dialect cannot write as ISO 8601 text (before year 1 and after 9999). */
    @Override
    protected List<Instant> extremeInstants() {
        return List.of(Instant.parse("-1000-01-01T00:00:00Z"), Instant.parse("0001-01-01T00:00:00Z"),
                Instant.parse("9999-12-31T23:59:59Z"), Instant.parse("+10000-01-01T00:00:00Z"));
    }

    @Test
    void theMigrationVacuumsTheTableAfterAFixedNumberOfChangedRows() throws SQLException {
        try (Connection connection = database().dataSource().getConnection();
             Statement statement = connection.createStatement();
             ResultSet options = statement.executeQuery(
                     "SELECT array_to_string(reloptions, ',') FROM pg_class WHERE oid = to_regclass('outbox')")) {
            options.next();
            assertEquals("autovacuum_vacuum_scale_factor=0,autovacuum_vacuum_threshold=10000", options.getString(1));
        }
    }
}
