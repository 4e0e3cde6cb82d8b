package org.eeoutbox.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Dialect detection from the product and version strings real drivers report. */
class SqlDialectTest {

    @Test
    void mariaDbThroughItsOwnDriverGetsTheMariaDbDialect() {
        // MariaDB Connector/J strips the 5.5.5- prefix MariaDB 10 sends.
        assertEquals("mariadb", SqlDialect.choose("MariaDB", "10.11.6-MariaDB-0+deb12u1", 10, 11).name());
        assertEquals("mariadb", SqlDialect.choose("MariaDB", "11.4.5-MariaDB", 11, 4).name());
    }

    @Test
    void mariaDbOlderThan1011IsRefusedNamingTheVersionNeeded() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> SqlDialect.choose("MariaDB", "10.6.18-MariaDB", 10, 6));
        assertTrue(e.getMessage().contains("MariaDB 10.6.18-MariaDB"), e.getMessage());
        assertTrue(e.getMessage().contains("MariaDB 10.11 or later"), e.getMessage());
    }

    @Test
    void mariaDbThroughMySqlConnectorJIsRefusedNamingTheDriverToUse() {
        // MySQL Connector/J reports MariaDB as MySQL, with the server's version string.
        for (String version : new String[] {"5.5.5-10.11.6-MariaDB-0+deb12u1", "11.4.5-MariaDB"}) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> SqlDialect.choose("MySQL", version, 5, 5));
            assertTrue(e.getMessage().contains("org.mariadb.jdbc:mariadb-java-client"), e.getMessage());
        }
    }

    @Test
    void mySqlAndPostgreSqlAreDetectedAsBefore() {
        assertEquals("mysql", SqlDialect.choose("MySQL", "8.0.15", 8, 0).name());
        assertEquals("postgresql", SqlDialect.choose("PostgreSQL", "17.6", 17, 6).name());
        assertThrows(IllegalStateException.class, () -> SqlDialect.choose("MySQL", "5.7.44", 5, 7));
        assertThrows(IllegalStateException.class, () -> SqlDialect.choose("PostgreSQL", "11.22", 11, 22));
        assertThrows(IllegalStateException.class, () -> SqlDialect.choose("H2", "2.3.232", 2, 3));
    }

    @Test
    void postgreSqlWritesAnInstantAsTheIsoTextOfInstantToStringWithEveryFractionDigit() {
        for (String instant : new String[] {"2026-12-07T12:30:05.123456789Z", "0001-01-01T00:00:00Z",
                "9999-12-31T23:59:59.999999Z", "1969-12-31T23:59:59.000001Z", "2028-02-29T00:00:00.5Z"}) {
            String text = PostgreSqlDialect.isoText(Instant.parse(instant));
            assertEquals(30, text.length(), text);
            assertEquals(Instant.parse(instant), Instant.parse(text));
        }
        assertEquals("2026-03-29T01:00:00.000001000Z",
                PostgreSqlDialect.isoText(Instant.parse("2026-03-29T01:00:00.000001Z")));
    }
}
