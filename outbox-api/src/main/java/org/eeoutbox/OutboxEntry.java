package org.eeoutbox;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.UUID;

/**
 * One row of the outbox: a published message, where it goes, and how its delivery stands.
 *
 * <p>Immutable. State changes only through the transition methods ({@link #toDelivered},
 * {@link #toRetry}, {@link #toFailed}, {@link #toPostponed}), each of which returns a copy.
 * Instants are truncated to microseconds, the precision every supported database stores, so an entry read
 * back equals the entry written. {@code lastError} is cut to {@value #MAX_ERROR_LENGTH}
 * characters.
 *
 * @param id               the entry's id, also sent as {@link OutboxHeaders#OUTBOX_ID}
 * @param messageType      see {@link OutboxMessage#messageType()}
 * @param payload          see {@link OutboxMessage#payload()}
 * @param deliveryType     see {@link DeliveryInfo#deliveryType()}
 * @param deliveryMetadata the JSON text of {@link DeliveryInfo#metadataJson()}
 * @param deduplicationKey see {@link OutboxMessage#deduplicationKey()}; may be {@code null}
 * @param orderingKey      see {@link OutboxMessage#orderingKey()}; may be {@code null}
 * @param orderingSeq      the entry's place in its ordering key's commit order, {@code >= 1},
 *                         given out by the store when it inserts the entry (so {@code null} in
 *                         an entry not yet inserted) and sent as
 *                         {@link OutboxHeaders#ORDERING_SEQ}; increasing with commit order within
 *                         one key, with gaps where a transaction rolled back or a duplicate
 *                         deduplication key wrote nothing; {@code null} without an ordering key
 * @param status           the delivery state
 * @param attempts         delivery attempts made so far, {@code >= 0}
 * @param nextAttemptAt    when a {@code PENDING} entry becomes due
 * @param createdAt        when the entry was published
 * @param updatedAt        when the entry last changed
 * @param lastError        why the last attempt failed, or {@code null}
 * @param deliveredAt      when the entry's delivery was recorded, or {@code null}: for a full
 *                         lock-mode batch, while its acknowledgements were still awaited (the
 *                         record commits after them)
 * @param lastAttemptAt    when the outcome of the entry's last delivery attempt was recorded, or
 *                         {@code null} before the first; {@link #toDelivered}, {@link #toRetry}
 *                         and {@link #toFailed} set it to their {@code now}, {@link #toPostponed}
 *                         (no attempt was made) keeps it
 * @param traceContext     the W3C trace context the entry carries, or {@code null}: as stored and
 *                         claimed, that of the transaction that published it (none when that
 *                         transaction had no tracer or no valid span); in an entry handed to a
 *                         {@link MessageDeliverer} while the outbox traces deliveries, that of the
 *                         attempt's delivery span instead, which the deliverer sends
 *                         ({@code traceparent}, {@code tracestate}) when its medium has headers
 */
public record OutboxEntry(
        UUID id,
        String messageType,
        String payload,
        String deliveryType,
        String deliveryMetadata,
        String deduplicationKey,
        String orderingKey,
        Long orderingSeq,
        OutboxStatus status,
        int attempts,
        Instant nextAttemptAt,
        Instant createdAt,
        Instant updatedAt,
        String lastError,
        Instant deliveredAt,
        Instant lastAttemptAt,
        TraceContext traceContext) {

    /** The longest {@code lastError} kept, in characters; longer reasons are cut. */
    public static final int MAX_ERROR_LENGTH = 4000;

    public OutboxEntry {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(messageType, "messageType");
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(deliveryType, "deliveryType");
        Objects.requireNonNull(deliveryMetadata, "deliveryMetadata");
        Objects.requireNonNull(status, "status");
        if (orderingSeq != null && (orderingKey == null || orderingSeq < 1)) {
            throw new IllegalArgumentException("orderingSeq must be >= 1 and come with an orderingKey, got: "
                    + orderingSeq + " for orderingKey " + orderingKey);
        }
        if (attempts < 0) {
            throw new IllegalArgumentException("attempts must be >= 0, got: " + attempts);
        }
        nextAttemptAt = micros(Objects.requireNonNull(nextAttemptAt, "nextAttemptAt"));
        createdAt = micros(Objects.requireNonNull(createdAt, "createdAt"));
        updatedAt = micros(Objects.requireNonNull(updatedAt, "updatedAt"));
        deliveredAt = deliveredAt == null ? null : micros(deliveredAt);
        lastAttemptAt = lastAttemptAt == null ? null : micros(lastAttemptAt);
        lastError = bounded(lastError);
    }

    /**
     * Creates a new {@link OutboxStatus#PENDING} entry, due at once.
     *
     * <p>The ordering key is the delivery's {@link DeliveryInfo#orderingKey()} when it imposes one,
     * the message's otherwise.
     *
     * @throws IllegalArgumentException if the delivery type is blank or the metadata is
     *                                  {@code null}, naming which, or if the message's ordering key
     *                                  differs from the one the delivery imposes
     */
    public static OutboxEntry create(UUID id, OutboxMessage message, DeliveryInfo delivery, Instant now) {
        String deliveryType = delivery.deliveryType();
        if (deliveryType == null || deliveryType.isBlank() || deliveryType.length() > 64) {
            throw new IllegalArgumentException("deliveryInfo.deliveryType() must be 1 to 64 characters, got: "
                    + deliveryType);
        }
        String metadata = delivery.metadataJson();
        if (metadata == null) {
            throw new IllegalArgumentException("deliveryInfo.metadataJson() must not be null");
        }
        String orderingKey = message.orderingKey();
        String imposed = delivery.orderingKey();
        if (imposed != null) {
            if (orderingKey != null && !orderingKey.equals(imposed)) {
                throw new IllegalArgumentException("message.orderingKey() '" + orderingKey + "' differs from the"
                        + " ordering key '" + imposed + "' its '" + deliveryType + "' delivery imposes; leave the"
                        + " message's ordering key unset");
            }
            orderingKey = imposed;
        }
        return new OutboxEntry(id, message.messageType(), message.payload(), deliveryType, metadata,
                message.deduplicationKey(), orderingKey, null, OutboxStatus.PENDING, 0, now, now, now,
                null, null, null, null);
    }

    /**
     * This entry with its place in its ordering key's commit order, as the store gives it out at
     * insert.
     *
     * @throws IllegalArgumentException if the entry has no ordering key or {@code seq < 1}
     */
    public OutboxEntry withOrderingSeq(long seq) {
        if (orderingKey == null) {
            throw new IllegalArgumentException("orderingSeq needs an orderingKey; entry " + id + " has none");
        }
        return new OutboxEntry(id, messageType, payload, deliveryType, deliveryMetadata, deduplicationKey,
                orderingKey, seq, status, attempts, nextAttemptAt, createdAt, updatedAt, lastError, deliveredAt,
                lastAttemptAt, traceContext);
    }

    /**
     * This entry carrying {@code context} instead of its own trace context: the publisher's
     * context at publish, a delivery span's on its way to a deliverer.
     *
     * @param context the context, or {@code null} for none
     */
    public OutboxEntry withTraceContext(TraceContext context) {
        if (Objects.equals(context, traceContext)) {
            return this;
        }
        return new OutboxEntry(id, messageType, payload, deliveryType, deliveryMetadata, deduplicationKey,
                orderingKey, orderingSeq, status, attempts, nextAttemptAt, createdAt, updatedAt, lastError, deliveredAt,
                lastAttemptAt, context);
    }

    /**
     * The entry after a successful attempt: {@code DELIVERED}, one more attempt, no last error (so
     * that the entries with an error are the ones still failing).
     */
    public OutboxEntry toDelivered(Instant now) {
        return new OutboxEntry(id, messageType, payload, deliveryType, deliveryMetadata, deduplicationKey,
                orderingKey, orderingSeq, OutboxStatus.DELIVERED, attempts + 1, nextAttemptAt, createdAt, now, null,
                now, now, traceContext);
    }

    /** The entry after a retriable failure: still {@code PENDING}, one more attempt, due later. */
    public OutboxEntry toRetry(Instant now, Instant nextAttempt, String error) {
        return new OutboxEntry(id, messageType, payload, deliveryType, deliveryMetadata, deduplicationKey,
                orderingKey, orderingSeq, OutboxStatus.PENDING, attempts + 1, nextAttempt, createdAt, now, error,
                null, now, traceContext);
    }

    /** The entry after a permanent failure or its last allowed attempt: {@code FAILED}. */
    public OutboxEntry toFailed(Instant now, String error) {
        return new OutboxEntry(id, messageType, payload, deliveryType, deliveryMetadata, deduplicationKey,
                orderingKey, orderingSeq, OutboxStatus.FAILED, attempts + 1, nextAttemptAt, createdAt, now, error,
                null, now, traceContext);
    }

    /**
     * The entry when its transport could not make an attempt at all (for example a closed
     * producer): still {@code PENDING}, due later, with its attempts unchanged.
     */
    public OutboxEntry toPostponed(Instant now, Instant nextAttempt, String error) {
        return new OutboxEntry(id, messageType, payload, deliveryType, deliveryMetadata, deduplicationKey,
                orderingKey, orderingSeq, OutboxStatus.PENDING, attempts, nextAttempt, createdAt, now, error, null,
                lastAttemptAt, traceContext);
    }

    /**
     * Whether this entry's state records a delivery attempt made at {@link #updatedAt()}: the
     * result of {@link #toDelivered}, {@link #toRetry} or {@link #toFailed}, not of
     * {@link #toPostponed}. The store writes a failed attempt's history from it.
     */
    public boolean attemptedAtUpdate() {
        return updatedAt.equals(lastAttemptAt);
    }

    private static Instant micros(Instant instant) {
        // Most instants are whole microseconds already (read back from the database): no arithmetic for them.
        return instant.getNano() % 1_000 == 0 ? instant : instant.truncatedTo(ChronoUnit.MICROS);
    }

    private static String bounded(String error) {
        if (error == null || error.length() <= MAX_ERROR_LENGTH) {
            return error;
        }
        int end = MAX_ERROR_LENGTH;
        if (Character.isHighSurrogate(error.charAt(end - 1))) {
            end--;
        }
        return error.substring(0, end);
    }

    @Override
    public String toString() {
        return "OutboxEntry[id=" + id + ", messageType=" + messageType + ", deliveryType=" + deliveryType
                + (orderingKey == null ? "" : ", orderingKey=" + orderingKey + ", orderingSeq=" + orderingSeq)
                + ", status=" + status + ", attempts=" + attempts + ", nextAttemptAt=" + nextAttemptAt + "]";
    }
}
