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
     * <p>If the message carries a deduplication key that the outbox already holds, nothing is
     * written and the id of the entry holding the key is returned; the caller's transaction stays
     * usable.
     *
     * @return the entry's id, the value later sent as {@link OutboxHeaders#OUTBOX_ID}
     * @throws IllegalStateException    if no transaction is active (or it is marked for rollback);
     *                                  nothing is written
     * @throws IllegalArgumentException if an argument is {@code null} or invalid, for example a
     *                                  payload above the configured maximum size; the message
     *                                  names the argument and nothing is written
     */
    UUID publish(OutboxMessage message, DeliveryInfo deliveryInfo);
}
