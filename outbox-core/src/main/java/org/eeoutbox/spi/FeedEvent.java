package org.eeoutbox.spi;

import java.util.Objects;
import java.util.UUID;

/**
 * One event of a feed channel, as {@link FeedStore#read} returns it.
 *
 * @param seq         its position in the channel's commit order, the cursor a client resumes from;
 *                    {@code >= 1}
 * @param id          the outbox entry's id
 * @param messageType the message type, a client's event name
 * @param payload     the payload, the event's data
 */
public record FeedEvent(long seq, UUID id, String messageType, String payload) {

    public FeedEvent {
        if (seq < 1) {
            throw new IllegalArgumentException("seq must be >= 1, got: " + seq);
        }
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(messageType, "messageType");
        Objects.requireNonNull(payload, "payload");
    }
}
