package org.eeoutbox.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eeoutbox.demo.DemoException;
import org.eeoutbox.demo.OrderClients;
import org.eeoutbox.demo.PayaraMicro;
import org.eeoutbox.testkit.Await;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Configuration a deployer gets wrong, or that holds secrets, on the real Payara Micro process
 * running the example WAR: a bad value fails the deployment with a message naming the property
 * and writes nothing; passwords and Kafka SASL settings never reach the log, an exception message
 * or {@code last_error}.
 */
class HostileConfigurationIT {

    private static final String KAFKA_SECRET = "kafka-secret-8e41b7";
    private static final String URL_SECRET = "url-secret-55d2";
    private static Rig rig;

    @BeforeAll
    static void startRig() throws Exception {
        rig = Rig.get();
    }

    @Test
    void passwordsAndSaslSettingsNeverAppearInTheLogOrInLastError() throws Exception {
        try (Run run = new Run(rig, "secrets", 1)) {
            Map<String, String> settings = run.settings(0);
            // The broker listens in plain text: the SASL handshake fails, so Kafka deliveries fail
            // and their errors are logged and stored, next to these settings.
            settings.put("outbox.kafka.producer.security.protocol", "SASL_PLAINTEXT");
            settings.put("outbox.kafka.producer.sasl.mechanism", "PLAIN");
            settings.put("outbox.kafka.producer.sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule"
                    + " required username=\"outbox\" password=\"" + KAFKA_SECRET + "\";");
            PayaraMicro payara = run.startAndAwait(0);
            OrderClients clients = new OrderClients(payara.baseUrl(), 0);
            for (int i = 0; i < 20; i++) {
                assertNotNull(clients.place("customer-" + i, BigDecimal.ONE), clients.firstFailure());
            }
            Await.until(Duration.ofMinutes(2), Duration.ofMillis(200),
                    () -> run.http.outboxIds().size() >= 20 && !lastErrors().isEmpty(),
                    () -> "no Kafka failure recorded: " + run.statuses());
            payara.close();
            String log = payara.readLog();

            assertTrue(log.contains("sasl.jaas.config = [hidden]"), "the producer was not built from the settings");
            assertEquals(0, run.kafka.outboxIds().size(), "a record passed the failing SASL handshake");
            for (String secret : List.of(KAFKA_SECRET, Rig.DATABASE_PASSWORD)) {
                assertFalse(log.contains(secret), "the Payara log holds " + secret);
                for (String error : lastErrors()) {
                    assertFalse(error.contains(secret), "last_error holds " + secret + ": " + error);
                }
            }
        }
    }

    @Test
    void invalidValuesFailTheDeploymentNamingEachPropertyAndNoCredentials() throws Exception {
        try (Run run = new Run(rig, "invalid-values", 1)) {
            Map<String, String> settings = run.settings(0);
            settings.put("outbox.processor.interval", "-5s");
            settings.put("outbox.purger.retention", "-1d");
            settings.put("outbox.http.service.billing.url", "https://outbox:" + URL_SECRET + "@billing.example.com");
            DemoException e = assertThrows(DemoException.class, () -> run.startAndAwait(0));
            String log = run.instances.get(0).readLog();

            assertTrue(log.contains("Invalid outbox configuration"), e.getMessage());
            assertTrue(log.contains("outbox.processor.interval=-5s is invalid"), e.getMessage());
            assertTrue(log.contains("outbox.purger.retention=-1d is invalid"), e.getMessage());
            assertTrue(log.contains("outbox.http.service.billing.url is invalid: base URL of HTTP service 'billing'"
                    + " must not contain user info (credentials), got: \"https://***@billing.example.com\""),
                    e.getMessage());
            assertFalse(log.contains(URL_SECRET), "the Payara log holds the URL's password");
            assertFalse(log.contains(Rig.DATABASE_PASSWORD), "the Payara log holds the database password");
            assertFalse(tableExists("outbox"), "the outbox table was created by a deployment that failed");
        }
    }

    @Test
    void unknownDataSourceFailsTheDeploymentNamingTheProperty() throws Exception {
        try (Run run = new Run(rig, "unknown-datasource", 1)) {
            run.settings(0).put("outbox.datasource", "java:app/jdbc/missing");
            DemoException e = assertThrows(DemoException.class, () -> run.startAndAwait(0));
            String log = run.instances.get(0).readLog();

            assertTrue(log.contains("outbox.datasource") && log.contains("java:app/jdbc/missing"), e.getMessage());
            assertFalse(tableExists("outbox"), "the outbox table was created by a deployment that failed");
        }
    }

    @Test
    void unusableKafkaProducerSettingsFailTheDeploymentWithoutTheirSecrets() throws Exception {
        try (Run run = new Run(rig, "unusable-kafka-settings", 1)) {
            Map<String, String> settings = run.settings(0);
            settings.put("outbox.kafka.producer.bootstrap.servers", "kafka-without-port");
            settings.put("outbox.kafka.producer.security.protocol", "SASL_PLAINTEXT");
            settings.put("outbox.kafka.producer.sasl.mechanism", "PLAIN");
            settings.put("outbox.kafka.producer.sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule"
                    + " required username=\"outbox\" password=\"" + KAFKA_SECRET + "\";");
            DemoException e = assertThrows(DemoException.class, () -> run.startAndAwait(0));
            String log = run.instances.get(0).readLog();

            assertTrue(log.contains("The outbox.kafka.producer.* properties cannot build a Kafka producer: Invalid url in"
                    + " bootstrap.servers: kafka-without-port"), e.getMessage());
            assertFalse(log.contains(KAFKA_SECRET), "the Payara log holds the SASL password");
            assertFalse(tableExists("orders") && count("SELECT COUNT(*) FROM orders") > 0, "an order was written");
        }
    }

    private static List<String> lastErrors() throws SQLException {
        List<String> errors = new ArrayList<>();
        try (Connection connection = rig.database.admin().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT last_error FROM outbox WHERE last_error IS NOT NULL")) {
            while (rows.next()) {
                errors.add(rows.getString(1));
            }
        }
        return errors;
    }

    private static boolean tableExists(String table) {
        return count("SELECT COUNT(*) FROM information_schema.tables WHERE table_name = '" + table + "'") > 0;
    }

    private static long count(String sql) {
        try (Connection connection = rig.database.admin().getConnection();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }
}
