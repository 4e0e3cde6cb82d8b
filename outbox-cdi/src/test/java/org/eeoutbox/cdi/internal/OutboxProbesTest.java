package org.eeoutbox.cdi.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.spi.OutboxStats;
import org.junit.jupiter.api.Test;

class OutboxProbesTest {

    private final MutableClock clock = new MutableClock();
    private final OutboxProbes probes = new OutboxProbes(clock);

    @Test
    void livenessFollowsTheLastCompletedPollNotTheDatabase() {
        OutboxSettings settings = settings(Map.of());
        Duration deadline = OutboxProbes.pollDeadline(settings);
        assertEquals(Duration.ofSeconds(3 + 120).plus(settings.processor().drainBudget()), deadline);

        assertTrue(probes.liveness(settings).up(), "just started");
        probes.probeFailed(new IllegalStateException("database down"));
        probes.pollCompleted();
        clock.advance(deadline);
        assertTrue(probes.liveness(settings).up(), "a failing database leaves it live");

        clock.advance(Duration.ofMillis(1));
        assertFalse(probes.liveness(settings).up(), "no poll completed within the deadline: hung");
        probes.pollCompleted();
        assertTrue(probes.liveness(settings).up());
    }

    @Test
    void livenessIsUpWhereTheProcessorDoesNotRun() {
        OutboxSettings settings = settings(Map.of("outbox.processor.enabled", "false"));
        clock.advance(Duration.ofDays(1));

        assertTrue(probes.liveness(settings).up());
    }

    @Test
    void readinessFollowsTheLastDatabaseProbe() {
        OutboxSettings settings = settings(Map.of("outbox.metrics.refresh-interval", "1s"));
        assertFalse(probes.readiness(settings).up(), "not probed yet");

        probes.probed(new OutboxStats(5, 0, Duration.ofHours(3), 0));
        assertTrue(probes.readiness(settings).up(), "a backlog alone never makes it DOWN by default");

        probes.probeFailed(new IllegalStateException("Connection refused"));
        OutboxProbes.Verdict down = probes.readiness(settings);
        assertFalse(down.up());
        assertTrue(down.data().get("database").contains("Connection refused"), down.data().toString());

        probes.probed(new OutboxStats(0, 0, Duration.ZERO, 0));
        assertTrue(probes.readiness(settings).up());
        clock.advance(Duration.ofSeconds(4));
        assertFalse(probes.readiness(settings).up(), "no probe completed within three intervals");
    }

    @Test
    void readinessChecksThePendingAgeOnlyWhenAThresholdIsSet() {
        OutboxSettings settings = settings(Map.of("outbox.health.max-pending-age", "10m"));

        probes.probed(new OutboxStats(1, 0, Duration.ofMinutes(9), 0));
        assertTrue(probes.readiness(settings).up());
        probes.probed(new OutboxStats(1, 0, Duration.ofMinutes(10), 0));
        assertFalse(probes.readiness(settings).up());
        assertEquals("PT10M", probes.readiness(settings).data().get("maxPendingAge"));
    }

    private static OutboxSettings settings(Map<String, String> values) {
        Map<String, String> all = new HashMap<>(values);
        all.put("outbox.datasource", "java:app/jdbc/outbox");
        Configuration configuration = Configuration.of(all);
        OutboxSettings settings = OutboxSettings.read(configuration).orElseThrow();
        assertEquals(java.util.List.of(), configuration.problems());
        return settings;
    }

    private static final class MutableClock extends Clock {
        private Instant now = Instant.parse("2026-12-03T12:00:00Z");

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
