package org.eeoutbox;

/** Names of the headers every transport sends with each delivery. */
public final class OutboxHeaders {

    /**
     * The entry's id, identical on every attempt, so that consumers can deduplicate. Transports
     * set it last, overriding a user header of the same name (Kafka appends it last: read
     * {@code lastHeader}).
     */
    public static final String OUTBOX_ID = "x-outbox-id";

    private OutboxHeaders() {
    }
}
