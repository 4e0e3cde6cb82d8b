package org.eeoutbox.admin;

import java.time.Instant;
import java.util.UUID;

/**
 * An ordering key held up by its {@code FAILED} head: the key's later entries wait until an
 * operator replays the head ({@link OutboxAdmin#replay(UUID)}: the key goes on in order) or
 * discards it ({@link OutboxAdmin#discard(UUID)}: the key goes on without it).
 *
 * @param orderingKey the key
 * @param headId      the failed head's entry id
 * @param failedAt    when the head failed
 * @param lastError   why, as its last attempt reported it; may be {@code null}
 */
public record BlockedKey(String orderingKey, UUID headId, Instant failedAt, String lastError) {
}
