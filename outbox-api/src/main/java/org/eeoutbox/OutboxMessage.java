package org.eeoutbox;


/**
 * A message to publish: its type, its payload and, optionally, a deduplication key and an
 * ordering key.
 *
 * <p>Immutable. The constructor checks each argument and throws {@link IllegalArgumentException}
 * naming the argument that is wrong; the size limit of the payload is the publisher's to check,
 * since it is configured.
 *
 * @param messageType      what happened, for example {@code "order.created"}; not blank, at most
 *                         {@value #MAX_TYPE_LENGTH} characters
 * @param payload          the body sent to the receiver, usually JSON; not {@code null}, may be
 *                         empty
 * @param deduplicationKey a business event id such as {@code "order-42:created"}, or
 *                         {@code null}; publishing a key that the outbox already holds writes
 *                         nothing and returns the id of the entry that holds it. Not blank, at most
 *                         {@value #MAX_KEY_LENGTH} characters
 * @param orderingKey      the aggregate whose messages must arrive in commit order, for example
 *                         {@code "order-42"}, or {@code null} (no order promised). Messages of one
 *                         key are delivered one at a time, in the order their transactions
 *                         committed; messages of other keys are not held up. Not blank, at most
 *                         {@value #MAX_KEY_LENGTH} characters. See docs/ordering.md
 */
public record OutboxMessage(String messageType, String payload, String deduplicationKey, String orderingKey) {

    /** The longest message type accepted, in characters. */
    public static final int MAX_TYPE_LENGTH = 255;

    /** The longest deduplication key or ordering key accepted, in characters. */
    public static final int MAX_KEY_LENGTH = 255;

    public OutboxMessage {
        requireText("messageType", messageType, MAX_TYPE_LENGTH);
        if (payload == null) {
            throw new IllegalArgumentException("payload must not be null");
        }
        if (deduplicationKey != null) {
            requireText("deduplicationKey", deduplicationKey, MAX_KEY_LENGTH);
        }
        if (orderingKey != null) {
            requireText("orderingKey", orderingKey, MAX_KEY_LENGTH);
        }
    }

    /** Creates a message without an ordering key. */
    public OutboxMessage(String messageType, String payload, String deduplicationKey) {
        this(messageType, payload, deduplicationKey, null);
    }

    /** Creates a message without a deduplication key and without an ordering key. */
    public OutboxMessage(String messageType, String payload) {
        this(messageType, payload, null, null);
    }

    /** Returns a copy of this message carrying the given deduplication key. */
    public OutboxMessage withDeduplicationKey(String key) {
        return new OutboxMessage(messageType, payload, key, orderingKey);
    }

    /**
     * Returns a copy of this message carrying the given ordering key: it is delivered after every
     * message of the same key whose transaction committed before its own, and before those
     * committed after it.
     *
     * @throws IllegalArgumentException naming {@code orderingKey} if the key is blank, longer
     *                                  than {@value #MAX_KEY_LENGTH} characters or holds an
     *                                  unpaired UTF-16 surrogate
     */
    public OutboxMessage withOrderingKey(String key) {
        return new OutboxMessage(messageType, payload, deduplicationKey, key);
    }

    /**
     * Returns the size of the payload encoded as UTF-8, in bytes, as the database stores it.
     *
     * @throws IllegalArgumentException if the payload holds an unpaired UTF-16 surrogate
     */
    public long payloadUtf8Length() {
        return Text.utf8Length("payload", payload);
    }

    private static void requireText(String name, String value, int maxLength) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be null or blank, got: "
                    + (value == null ? "null" : "\"" + value + "\""));
        }
        if (value.length() > maxLength) {
            throw new IllegalArgumentException(name + " must be at most " + maxLength
                    + " characters, got: " + value.length() + " characters");
        }
        Text.requireValidUtf16(name, value);
    }

    @Override
    public String toString() {
        return "OutboxMessage[messageType=" + messageType + ", payload=" + payload.length()
                + " chars, deduplicationKey=" + deduplicationKey + ", orderingKey=" + orderingKey + "]";
    }
}
