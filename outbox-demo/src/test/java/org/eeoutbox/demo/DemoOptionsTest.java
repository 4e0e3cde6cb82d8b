package org.eeoutbox.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DemoOptionsTest {

    @Test
    void defaults() {
        DemoOptions options = DemoOptions.parse(new String[0], Map.of());
        assertEquals(10_000, options.orders());
        assertEquals("postgresql", options.databaseKind());
        assertFalse(options.externalDatabase());
        assertFalse(options.chaos());
        assertEquals(8, options.clients());
        assertEquals(Duration.ofMinutes(3), options.timeout());
        assertEquals(0, options.rate());
        assertEquals(0, options.warmUp());
        assertEquals(0, options.feedClients());
    }

    @Test
    void optionsWithSeparateOrInlineValues() {
        DemoOptions options = DemoOptions.parse(
                new String[] {"--orders", "500", "--db=mysql", "--chaos", "--clients=4", "--timeout", "60",
                        "--rate", "500", "--warm-up=100", "--feed-clients", "50"}, Map.of());
        assertEquals(500, options.orders());
        assertEquals("mysql", options.databaseKind());
        assertTrue(options.chaos());
        assertEquals(4, options.clients());
        assertEquals(Duration.ofSeconds(60), options.timeout());
        assertEquals(500, options.rate());
        assertEquals(100, options.warmUp());
        assertEquals(50, options.feedClients());
    }

    @Test
    void externalDatabaseNeedsALoginWithAPassword() {
        String url = "jdbc:mysql://db:3306/demo";
        IllegalArgumentException noPassword = assertThrows(IllegalArgumentException.class,
                () -> DemoOptions.parse(new String[] {"--db", url, "--db-user", "demo"}, Map.of()));
        assertTrue(noPassword.getMessage().contains("--db-password"), noPassword.getMessage());

        DemoOptions options = DemoOptions.parse(new String[] {"--db", url},
                Map.of("DEMO_DB_USER", "demo", "DEMO_DB_PASSWORD", "secret"));
        assertTrue(options.externalDatabase());
        assertEquals("mysql", options.databaseKind());
        assertEquals("demo", options.dbUser().orElseThrow());
    }

    @Test
    void mariadbIsNamedOrGivenByItsDriversUrl() {
        assertEquals("mariadb", DemoOptions.parse(new String[] {"--db", "MariaDB"}, Map.of()).databaseKind());
        DemoOptions external = DemoOptions.parse(new String[] {"--db", "jdbc:mariadb://db:3306/demo"},
                Map.of("DEMO_DB_USER", "demo", "DEMO_DB_PASSWORD", "secret"));
        assertTrue(external.externalDatabase());
        assertEquals("mariadb", external.databaseKind());
    }

    @Test
    void rejectsBadValues() {
        for (String[] args : new String[][] {{"--orders", "0"}, {"--orders", "ten"}, {"--orders"}, {"--db", "oracle"},
                {"--db", "jdbc:oracle:thin:@x"}, {"--verbose"}, {"--chaos=yes"}, {"--clients", "65"},
                {"--rate", "-1"}, {"--orders", "100", "--warm-up", "100"}}) {
            assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse(args, Map.of()), String.join(" ", args));
        }
    }
}
