package org.eeoutbox;

/**
 * Names of the headers the library's transports (HTTP and Kafka) send with each delivery. They
 * are set last, overriding a user header of the same name (Kafka appends them last: read
 * {@code lastHeader}).
 */
public final class OutboxHeaders {

    /**
     * The entry's id, identical on every attempt, so that consumers can deduplicate. Every
     * {@link MessageDeliverer} sends it.
     */
    public static final String OUTBOX_ID = "x-outbox-id";

    /**
     * The entry's {@linkplain OutboxMessage#messageType() message type}, so that a consumer can
     * route without parsing the payload. Over HTTP, characters outside printable ASCII (and
     * {@code %}) are sent percent-encoded as UTF-8 ({@code order.créée} becomes
     * {@code order.cr%C3%A9%C3%A9e}); Kafka headers carry the UTF-8 bytes unchanged.
     */
    public static final String MESSAGE_TYPE = "x-outbox-message-type";

    /**
     * The number of this attempt as a decimal, {@code 1} for the first: one more than the failed
     * attempts recorded before it. An attempt whose outcome was lost in a crash is repeated with
     * the same number; a postponed delivery (not an attempt) does not count.
     */
    public static final String ATTEMPT = "x-outbox-attempt";

    /**
     * The entry's {@linkplain OutboxMessage#orderingKey() ordering key}, sent only when it has
     * one, encoded as {@link #MESSAGE_TYPE} is.
     */
    public static final String ORDERING_KEY = "x-outbox-ordering-key";

    /**
     * The entry's {@linkplain OutboxEntry#orderingSeq() place in its key's commit order} as a
     * decimal, sent with {@link #ORDERING_KEY}. A consumer that keeps the highest sequence seen per
     * key can drop a repeated delivery of a message it already has; sequences of one key grow but
     * may have gaps.
     */
    public static final String ORDERING_SEQ = "x-outbox-ordering-seq";

    /**
     * The W3C Trace Context header naming the span the message is sent from: the delivery span,
     * sent when the entry carries a {@linkplain OutboxEntry#traceContext() trace context}, and
     * then replacing a {@code traceparent} (and {@code tracestate}) the delivery's own headers carry.
     */
    public static final String TRACEPARENT = "traceparent";

    /** The W3C Trace Context header sent with {@link #TRACEPARENT} when the context has a tracestate. */
    public static final String TRACESTATE = "tracestate";

    private OutboxHeaders() {
    }

    /** Whether {@code name} is one of the headers above, which transports set themselves. */
    public static boolean isReserved(String name) {
        return OUTBOX_ID.equalsIgnoreCase(name) || MESSAGE_TYPE.equalsIgnoreCase(name)
                || ATTEMPT.equalsIgnoreCase(name) || ORDERING_KEY.equalsIgnoreCase(name)
                || ORDERING_SEQ.equalsIgnoreCase(name);
    }
}
