package org.eeoutbox.cdi.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eeoutbox.RetryPolicy;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.config.OutboxConfigurationException;
import org.junit.jupiter.api.Test;

class OutboxSettingsTest {

    private final Map<String, String> properties = new HashMap<>(Map.of("outbox.datasource", "java:app/jdbc/orders"));

    private OutboxSettings read() {
        Configuration configuration = Configuration.of(properties);
        Optional<OutboxSettings> settings = OutboxSettings.read(configuration);
        configuration.throwIfInvalid();
        return settings.orElseThrow();
    }

    @Test
    void defaultsMatchTheDocumentedOnes() {
        OutboxSettings settings = read();

        assertEquals("java:app/jdbc/orders", settings.dataSource());
        assertEquals(OutboxSettings.Trigger.MANAGED_SCHEDULED_EXECUTOR, settings.trigger());
        assertEquals("java:comp/DefaultManagedScheduledExecutorService", settings.scheduledExecutor());
        assertEquals("java:comp/DefaultManagedExecutorService", settings.managedExecutor());
        assertEquals(100, settings.processor().batchSize());
        assertEquals(1, settings.processor().concurrency());
        assertEquals(RetryPolicy.DEFAULT, settings.processor().retryPolicy());
        assertEquals(Duration.ofSeconds(1), settings.pollInterval());
        assertEquals(Duration.ofDays(7), settings.purger().retention());
        assertEquals(Duration.ofDays(7), settings.purger().deduplicationWindow());
        assertEquals(1024 * 1024, settings.maxPayloadBytes());
        assertTrue(settings.processorEnabled());
        assertFalse(settings.createSchema());
    }

    @Test
    void durationsAcceptIsoAndShortForms() {
        properties.put("outbox.processor.interval", "500ms");
        properties.put("outbox.processor.initial-backoff", "PT2S");
        properties.put("outbox.processor.max-backoff", "5m");
        properties.put("outbox.purger.retention", "3d");
        properties.put("outbox.purger.interval", "2h");

        OutboxSettings settings = read();

        assertEquals(Duration.ofMillis(500), settings.pollInterval());
        assertEquals(Duration.ofSeconds(2), settings.processor().retryPolicy().initialBackoff());
        assertEquals(Duration.ofMinutes(5), settings.processor().retryPolicy().maxBackoff());
        assertEquals(Duration.ofDays(3), settings.purger().retention());
        assertEquals(Duration.ofDays(3), settings.purger().deduplicationWindow(), "the window follows the retention");
        assertEquals(Duration.ofHours(2), settings.purgeInterval());
    }

    @Test
    void triggerIsOneOfTheNamedOnes() {
        properties.put("outbox.trigger", "EJB-Timer");
        assertEquals(OutboxSettings.Trigger.EJB_TIMER, read().trigger());

        properties.put("outbox.trigger", "quartz");
        OutboxConfigurationException e = assertThrows(OutboxConfigurationException.class, this::read);
        assertTrue(e.getMessage().contains("outbox.trigger=quartz is invalid: expected one of "
                + "managed-scheduled-executor, ejb-timer"), e.getMessage());
    }

    @Test
    void sizesAcceptBytesAndBinaryUnits() {
        properties.put("outbox.payload.max-size", "512KiB");
        assertEquals(512 * 1024, read().maxPayloadBytes());
        properties.put("outbox.payload.max-size", "2048");
        assertEquals(2048, read().maxPayloadBytes());
    }

    @Test
    void everyInvalidValueIsReportedWithItsPropertyValueAndRange() {
        properties.remove("outbox.datasource");
        properties.put("outbox.processor.batch-size", "0");
        properties.put("outbox.processor.interval", "-5s");
        properties.put("outbox.processor.backoff-jitter", "1.5");
        properties.put("outbox.processor.enabled", "yes");
        properties.put("outbox.payload.max-size", "lots");

        OutboxConfigurationException e = assertThrows(OutboxConfigurationException.class, this::read);

        assertEquals(6, e.problems().size(), e.getMessage());
        assertTrue(e.getMessage().contains("outbox.datasource is required"), e.getMessage());
        assertTrue(e.getMessage().contains("outbox.processor.batch-size=0 is invalid: expected a whole number in [1, 10000]"),
                e.getMessage());
        assertTrue(e.getMessage().contains("outbox.processor.interval=-5s is invalid"), e.getMessage());
        assertTrue(e.getMessage().contains("outbox.processor.backoff-jitter=1.5 is invalid: expected a number in [0, 1)"),
                e.getMessage());
        assertTrue(e.getMessage().contains("outbox.processor.enabled=yes is invalid: expected true or false"),
                e.getMessage());
        assertTrue(e.getMessage().contains("outbox.payload.max-size=lots is invalid"), e.getMessage());
    }

    @Test
    void maxBackoffBelowInitialBackoffIsRejected() {
        properties.put("outbox.processor.initial-backoff", "1m");
        properties.put("outbox.processor.max-backoff", "10s");

        OutboxConfigurationException e = assertThrows(OutboxConfigurationException.class, this::read);

        assertTrue(e.getMessage().contains("outbox.processor.max-backoff=PT10S is invalid"), e.getMessage());
    }

    @Test
    void claimModesDefaultToTheTransportsAndAreSetGloballyOrPerDeliveryType() {
        ClaimModes defaults = read().claimModes();
        assertEquals(Set.of("http"), defaults.leased(List.of("http", "kafka", "sms"), Set.of("http")));
        assertEquals(Duration.ofMinutes(2), defaults.lease());

        properties.put("outbox.processor.claim-mode", "lock");
        assertEquals(Set.of(), read().claimModes().leased(List.of("http", "kafka"), Set.of("http")),
                "a mode for every type overrides the transports' defaults");

        properties.put("outbox.processor.claim-mode", "lease");
        properties.put("outbox.processor.claim-mode.kafka", "LOCK");
        properties.put("outbox.processor.lease", "90s");
        ClaimModes modes = read().claimModes();

        assertEquals(Set.of("http", "sms"), modes.leased(List.of("http", "kafka", "sms"), Set.of()));
        assertEquals(Duration.ofSeconds(90), modes.lease());
    }

    @Test
    void aClaimModeOtherThanLockOrLeaseFailsNamingTheKey() {
        properties.put("outbox.processor.claim-mode.http", "optimistic");

        OutboxConfigurationException e = assertThrows(OutboxConfigurationException.class, this::read);

        assertTrue(e.getMessage().contains("outbox.processor.claim-mode.http=optimistic is invalid: expected lock or "
                + "lease"), e.getMessage());
    }
}
