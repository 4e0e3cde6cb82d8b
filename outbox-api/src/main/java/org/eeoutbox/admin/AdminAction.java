package org.eeoutbox.admin;

import java.time.Instant;

/**
 * The audit record of a change made through {@link OutboxAdmin}, fired as a CDI event after the
 * change committed (observe it with {@code @Observes AdminAction}) and logged at {@code INFO}.
 *
 * @param action  {@link #REPLAY}, {@link #DISCARD}, {@link #PAUSE} or {@link #RESUME}
 * @param target  the entry id, the delivery type, or the filter of a bulk operation, as text
 * @param changed the entries (or types) changed
 * @param caller  the caller's name, or {@code "unknown"} when no one is authenticated
 * @param at      when the change committed
 */
public record AdminAction(String action, String target, long changed, String caller, Instant at) {

    /** The {@link #action()} of a replay, of one entry or in bulk. */
    public static final String REPLAY = "replay";

    /** The {@link #action()} of a discard, of one entry or in bulk. */
    public static final String DISCARD = "discard";

    /** The {@link #action()} of a pause. */
    public static final String PAUSE = "pause";

    /** The {@link #action()} of a resume. */
    public static final String RESUME = "resume";
}
