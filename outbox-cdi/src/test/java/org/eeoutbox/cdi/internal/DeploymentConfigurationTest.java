package org.eeoutbox.cdi.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.eeoutbox.config.Configuration;
import org.junit.jupiter.api.Test;

class DeploymentConfigurationTest {

    private DeploymentConfiguration read(Map<String, String> values) {
        return DeploymentConfiguration.read(Configuration.of(values), getClass().getClassLoader(),
                new ApplicationBeans());
    }

    @Test
    void theRuntimesAndEveryTransportsProblemsAreListedTogether() {
        DeploymentConfiguration read = read(Map.of("outbox.processor.batch-size", "0",
                "outbox.http.connect-timeout", "10m", "outbox.kafka.send-timeout", "0s"));

        List<String> problems = read.problems();

        assertEquals(4, problems.size(), problems.toString());
        assertTrue(problems.contains("outbox.datasource is required: the JNDI name of a transactional DataSource, "
                + "for example java:app/jdbc/orders"), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("outbox.processor.batch-size=0 is invalid")));
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("outbox.http.connect-timeout=10m is invalid: "
                + "expected a duration in [1ms, 5m]")), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("outbox.kafka.send-timeout=0s is invalid")));
    }

    @Test
    void aMisspelledKeyIsWarnedAboutNamingTheClosestProperty() {
        DeploymentConfiguration read = read(Map.of("outbox.datasource", "java:app/jdbc/orders",
                "outbox.procesor.interval", "5s", "outbox.kafka.producer.acks", "all",
                "outbox.http.service.orders.url", "http://orders", "other.key", "1"));

        assertEquals(List.of(), read.problems());
        assertNotNull(read.settings());
        assertEquals(List.of("outbox.procesor.interval is not an outbox property and is ignored; did you mean "
                + "outbox.processor.interval?"), read.unknownKeys());
    }

    @Test
    void theOldNamesAreUnknownNow() {
        DeploymentConfiguration read = read(Map.of("outbox.datasource", "java:app/jdbc/orders",
                "outbox.scheduler", "ejb-timer", "outbox.kafka.bootstrap.servers", "localhost:9092"));

        assertEquals(2, read.unknownKeys().size(), read.unknownKeys().toString());
    }
}
