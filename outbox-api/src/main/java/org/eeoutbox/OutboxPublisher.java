package org.eeoutbox;

import java.util.UUID;

/**
 * Publishes messages through the outbox: the entry is written in the caller's transaction and
 * delivered after that transaction commits, at least once.
 *
 * <p>Thread-safe. Inside a Jakarta EE application, inject it with CDI.
 */
public interface OutboxPublisher {

    /**
     * Writes an outbox entry in the caller's active transaction: it commits with the caller's
     * business data or not at all.
     *
     * <p>If the message carries a deduplication key that the outbox already holds for the same
     * delivery (same delivery type and metadata), nothing is written and the id of the entry
     * holding the key is returned; the caller's transaction stays usable. A key is unique across
     * the whole outbox, not per destination: publishing one event to two destinations needs a key
     * per destination ({@code invoice-42:http}, {@code invoice-42:kafka}).
     *
     * @return the entry's id, the value later sent as {@link OutboxHeaders#OUTBOX_ID}
     * @throws IllegalStateException    if no transaction is active (or it is marked for rollback);
     *                                  nothing is written
     * @throws IllegalArgumentException if an argument is {@code null} or invalid, for example a
     *                                  payload above the configured maximum size; the message
     *                                  names the argument and nothing is written; also if
     *                                  the deduplication key is held by an entry for another
     *                                  delivery type or other metadata (the message names the
     *                                  key, that entry's id and delivery type)
     */
    UUID publish(OutboxMessage message, DeliveryInfo deliveryInfo);
}
