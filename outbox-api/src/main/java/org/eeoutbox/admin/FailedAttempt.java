package org.eeoutbox.admin;

import java.time.Instant;

/**
 * One failed delivery attempt, recorded in the transaction that recorded its outcome.
 *
 * @param attempt     the attempt's number, from 1 (counted again from 1 after a replay)
 * @param attemptedAt when the attempt's outcome was recorded
 * @param permanent   whether it made the entry {@code FAILED}; {@code false} for a failure that
 *                    was retried
 * @param error       why it failed
 */
public record FailedAttempt(int attempt, Instant attemptedAt, boolean permanent, String error) {
}
