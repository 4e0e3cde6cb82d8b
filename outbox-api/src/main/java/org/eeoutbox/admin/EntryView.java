package org.eeoutbox.admin;

import java.time.Instant;
import java.util.UUID;
import org.eeoutbox.OutboxStatus;

/**
 * An entry as operators see it.
 *
 * @param id               the entry's id, sent as {@code x-outbox-id}
 * @param messageType      the message type
 * @param deliveryType     the delivery type
 * @param deliveryMetadata where it goes: the delivery's metadata as JSON text
 * @param deduplicationKey the deduplication key, or {@code null}
 * @param status           the status
 * @param attempts         attempts since it was published or last replayed
 * @param nextAttemptAt    when a {@code PENDING} entry is due
 * @param createdAt        when it was published
 * @param updatedAt        when it last changed
 * @param lastAttemptAt    when its last attempt ended, or {@code null} before the first
 * @param lastError        why its last attempt failed, or {@code null}
 * @param deliveredAt      when it was delivered, or {@code null}
 * @param payload          the payload, or {@code null} when it was not asked for
 */
public record EntryView(UUID id, String messageType, String deliveryType, String deliveryMetadata,
                        String deduplicationKey, OutboxStatus status, int attempts, Instant nextAttemptAt,
                        Instant createdAt, Instant updatedAt, Instant lastAttemptAt, String lastError,
                        Instant deliveredAt, String payload) {
}
