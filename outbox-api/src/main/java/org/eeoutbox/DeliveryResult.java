package org.eeoutbox;

import java.time.Instant;
import java.util.Objects;

/**
 * The outcome of one delivery attempt, as a value: a transport reports failures through it and
 * never by throwing. The processor decides the entry's next state from it in one place.
 *
 * <table>
 *   <caption>Outcome and next state</caption>
 *   <tr><th>Outcome</th><th>Next state</th></tr>
 *   <tr><td>{@link Delivered}</td><td>{@code DELIVERED}</td></tr>
 *   <tr><td>{@link RetriableFailure}</td><td>{@code PENDING}, due after the backoff (or later, at
 *       {@code notBefore}); {@code FAILED} once the retry budget is spent</td></tr>
 *   <tr><td>{@link PermanentFailure}</td><td>{@code FAILED}</td></tr>
 *   <tr><td>{@link Postponed}</td><td>{@code PENDING}, due at {@code notBefore}, attempts
 *       unchanged: the transport could not try at all</td></tr>
 * </table>
 */
public sealed interface DeliveryResult {

    /** The receiver accepted the message. */
    record Delivered() implements DeliveryResult {
    }

    /**
     * The attempt failed but may succeed later (timeout, 5xx, broker unavailable).
     *
     * @param reason    why, for {@code lastError}; not {@code null}
     * @param notBefore the earliest next attempt the receiver asked for (HTTP {@code Retry-After}),
     *                  or {@code null} for the retry policy's backoff alone
     */
    record RetriableFailure(String reason, Instant notBefore) implements DeliveryResult {
        public RetriableFailure {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * The attempt failed and will fail again (4xx, unknown service, message too large).
     *
     * @param reason why, for {@code lastError}; not {@code null}
     */
    record PermanentFailure(String reason) implements DeliveryResult {
        public PermanentFailure {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * The transport could not make an attempt at all (for example its producer is closed or
     * fenced): the entry stays pending without spending its retry budget.
     *
     * @param reason    why, for {@code lastError}; not {@code null}
     * @param notBefore when to try again; not {@code null}
     */
    record Postponed(String reason, Instant notBefore) implements DeliveryResult {
        public Postponed {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(notBefore, "notBefore");
        }
    }

    /** Returns the outcome of a successful delivery. */
    static DeliveryResult delivered() {
        return new Delivered();
    }

    /** Returns a retriable failure that follows the retry policy's backoff. */
    static DeliveryResult retriable(String reason) {
        return new RetriableFailure(reason, null);
    }

    /** Returns a retriable failure not to be retried before {@code notBefore}. */
    static DeliveryResult retriable(String reason, Instant notBefore) {
        return new RetriableFailure(reason, notBefore);
    }

    /** Returns a permanent failure. */
    static DeliveryResult permanent(String reason) {
        return new PermanentFailure(reason);
    }

    /** Returns an outcome that leaves the entry pending, untried, until {@code notBefore}. */
    static DeliveryResult postponed(String reason, Instant notBefore) {
        return new Postponed(reason, notBefore);
    }
}
