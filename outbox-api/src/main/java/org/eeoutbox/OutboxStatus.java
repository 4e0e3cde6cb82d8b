package org.eeoutbox;

/**
 * The life cycle of an outbox entry: {@code PENDING → DELIVERED | FAILED}, and by an operator's
 * hand ({@link org.eeoutbox.admin.OutboxAdmin}) {@code FAILED | DISCARDED → PENDING} (replay) and
 * {@code PENDING | FAILED → DISCARDED}.
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
    FAILED,
    /** Given up by an operator: never delivered, kept for audit, purged after its own retention. */
    DISCARDED
}
