package org.eeoutbox;

import java.time.Duration;
import java.util.Objects;

/**
 * How often and when a retriable failure is tried again.
 *
 * <p>After the {@code n}-th failed attempt the entry is due again after
 * {@code min(initialBackoff × multiplier^(n-1), maxBackoff) × (1 − jitter × U[0,1))}. An entry
 * whose {@code maxRetries + 1} attempts all failed becomes {@code FAILED}.
 *
 * <p>Immutable; the constructor checks every range and throws {@link IllegalArgumentException}
 * naming the component and its value.
 *
 * @param maxRetries     retries after the first attempt, {@code >= 0}; default 5
 * @param initialBackoff delay after the first failure, {@code >= 0}; default 10 s
 * @param multiplier     growth per further failure, {@code >= 1}; default 2
 * @param maxBackoff     the longest delay, {@code >= initialBackoff}; default 10 min
 * @param jitter         the random share taken off each delay, in {@code [0, 1)}; default 0.2
 */
public record RetryPolicy(int maxRetries, Duration initialBackoff, double multiplier, Duration maxBackoff,
                          double jitter) {

    /** The defaults: 5 retries, 10 s doubling up to 10 min, jitter 0.2. */
    public static final RetryPolicy DEFAULT =
            new RetryPolicy(5, Duration.ofSeconds(10), 2.0, Duration.ofMinutes(10), 0.2);

    public RetryPolicy {
        if (maxRetries < 0) {
            throw new IllegalArgumentException("maxRetries must be >= 0, got: " + maxRetries);
        }
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        if (initialBackoff.isNegative()) {
            throw new IllegalArgumentException("initialBackoff must be >= 0, got: " + initialBackoff);
        }
        if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
            throw new IllegalArgumentException("multiplier must be a finite number >= 1, got: " + multiplier);
        }
        if (maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("maxBackoff must be >= initialBackoff (" + initialBackoff
                    + "), got: " + maxBackoff);
        }
        if (!(jitter >= 0.0 && jitter < 1.0)) {
            throw new IllegalArgumentException("jitter must be in [0, 1), got: " + jitter);
        }
    }

    /** Returns whether an entry that has failed {@code attempts} times may not be tried again. */
    public boolean isExhausted(int attempts) {
        return attempts > maxRetries;
    }

    /**
     * Returns the delay after the {@code attempts}-th failed attempt.
     *
     * @param attempts failed attempts so far, {@code >= 1}
     * @param random   a uniform random number in {@code [0, 1)} that draws the jitter
     */
    public Duration backoff(int attempts, double random) {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be >= 1, got: " + attempts);
        }
        double base = initialBackoff.toNanos() * Math.pow(multiplier, attempts - 1.0);
        double capped = Math.min(base, maxBackoff.toNanos());
        return Duration.ofNanos((long) (capped * (1.0 - jitter * random)));
    }
}
