package org.eeoutbox.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
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
}
