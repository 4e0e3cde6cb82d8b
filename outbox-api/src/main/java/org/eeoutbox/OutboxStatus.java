package org.eeoutbox;

/**
 * The life cycle of an outbox entry: {@code PENDING → DELIVERED | FAILED}.
 *
 * <p>A retriable failure leaves an entry {@link #PENDING} with one more attempt and a later due
 * time. {@link #FAILED} is terminal until an operator replays the entry.
 */
public enum OutboxStatus {
    /** Waiting for its first or next delivery attempt. */
    PENDING,
    /** Delivered; purged once older than the retention. */
    DELIVERED,
    /** Delivery failed permanently or the retry budget is spent. */
    FAILED
}
