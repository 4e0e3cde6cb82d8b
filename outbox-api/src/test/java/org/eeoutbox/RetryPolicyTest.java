package org.eeoutbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    @Test
    void backoffGrowsByTheMultiplierUpToTheMaximum() {
        RetryPolicy policy = new RetryPolicy(10, Duration.ofSeconds(10), 2.0, Duration.ofMinutes(1), 0.0);

        assertEquals(Duration.ofSeconds(10), policy.backoff(1, 0.5));
        assertEquals(Duration.ofSeconds(20), policy.backoff(2, 0.5));
        assertEquals(Duration.ofSeconds(40), policy.backoff(3, 0.5));
        assertEquals(Duration.ofMinutes(1), policy.backoff(4, 0.5));
        assertEquals(Duration.ofMinutes(1), policy.backoff(60, 0.5));
    }

    @Test
    void jitterTakesUpToItsShareOffTheDelay() {
        RetryPolicy policy = new RetryPolicy(5, Duration.ofSeconds(10), 2.0, Duration.ofMinutes(10), 0.2);

        assertEquals(Duration.ofSeconds(10), policy.backoff(1, 0.0));
        assertEquals(Duration.ofSeconds(9), policy.backoff(1, 0.5));
        assertTrue(policy.backoff(1, 0.999999).compareTo(Duration.ofSeconds(8)) > 0);
    }

    @Test
    void defaultPolicyAllowsSixAttempts() {
        assertFalse(RetryPolicy.DEFAULT.isExhausted(5));
        assertTrue(RetryPolicy.DEFAULT.isExhausted(6));
    }

    @Test
    void invalidRangesAreRejectedNamingTheComponent() {
        assertMessage("maxRetries must be >= 0, got: -1",
                () -> new RetryPolicy(-1, Duration.ZERO, 1.0, Duration.ZERO, 0.0));
        assertMessage("multiplier must be a finite number >= 1, got: 0.5",
                () -> new RetryPolicy(1, Duration.ZERO, 0.5, Duration.ZERO, 0.0));
        assertMessage("jitter must be in [0, 1), got: 1.0",
                () -> new RetryPolicy(1, Duration.ZERO, 1.0, Duration.ZERO, 1.0));
        assertMessage("maxBackoff must be >= initialBackoff (PT10S), got: PT1S",
                () -> new RetryPolicy(1, Duration.ofSeconds(10), 1.0, Duration.ofSeconds(1), 0.0));
    }

    private static void assertMessage(String expected, Runnable call) {
        assertEquals(expected, assertThrows(IllegalArgumentException.class, call::run).getMessage());
    }
}
