package org.eeoutbox.admin;

import java.time.Instant;

/**
 * A paused delivery type.
 *
 * @param deliveryType the type
 * @param pausedAt     when it was paused
 * @param pausedBy     who paused it: the caller's name, or {@code "unknown"}
 */
public record Pause(String deliveryType, Instant pausedAt, String pausedBy) {
}
