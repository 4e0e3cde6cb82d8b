package org.eeoutbox.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.eeoutbox.engine.ProcessorSettings;
import org.junit.jupiter.api.Test;

class MaxBatchDurationTest {

    @Test
    void aBatchTakesOneAttemptTimeoutPerWaveOfRequestsInFlight() {
        HttpDelivererSettings settings = new HttpDelivererSettings(Duration.ofSeconds(5), Duration.ofSeconds(10), 32);
        try (HttpMessageDeliverer deliverer = new HttpMessageDeliverer(HttpServiceResolver.of(Map.of()), Runnable::run,
                Clock.systemUTC(), settings)) {
            assertEquals(Optional.of(Duration.ofSeconds(15)), deliverer.maxBatchDuration(1));
            assertEquals(Optional.of(Duration.ofSeconds(15)), deliverer.maxBatchDuration(32));
            assertEquals(Optional.of(Duration.ofSeconds(60)), deliverer.maxBatchDuration(100));
        }
    }

    @Test
    void theDefaultsSendADefaultBatchInOneWave() {
        try (HttpMessageDeliverer deliverer = new HttpMessageDeliverer(HttpServiceResolver.of(Map.of()), Runnable::run,
                Clock.systemUTC(), HttpDelivererSettings.DEFAULT)) {
            // Within outbox.processor.transaction-timeout's default of 120 s, which startup checks.
            assertEquals(Optional.of(Duration.ofSeconds(15)),
                    deliverer.maxBatchDuration(ProcessorSettings.DEFAULT.batchSize()));
        }
    }
}
