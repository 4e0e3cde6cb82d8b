package org.eeoutbox.admin;

import java.time.Instant;

/**
 * The audit record of a change made through {@link OutboxAdmin}, fired as a CDI event after the
 * change committed (observe it with {@code @Observes AdminAction}) and logged at {@code INFO}.
 *
 * @param action  {@code "replay"}, {@code "discard"}, {@code "pause"} or {@code "resume"}
 * @param target  the entry id, the delivery type, or the filter of a bulk operation, as text
 * @param changed the entries (or types) changed
 * @param caller  the caller's name, or {@code "unknown"} when no one is authenticated
 * @param at      when the change committed
 */
public record AdminAction(String action, String target, long changed, String caller, Instant at) {
}
