package org.eeoutbox.it.support;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One request as {@link HttpReceiver} received it, immutable.
 *
 * @param method     the HTTP method, such as {@code POST}
 * @param path       the request path without query, such as {@code /hooks/orders}
 * @param query      the raw query string, or {@code null}
 * @param headers    header names in lower case, each with its values in arrival order
 * @param body       the body decoded as UTF-8 (empty if none)
 * @param status     the status the receiver answered with
 * @param receivedAt when the receiver read the request
 */
public record ReceivedRequest(String method, String path, String query, Map<String, List<String>> headers,
        String body, int status, Instant receivedAt) {

    /** The header carrying the outbox entry id. */
    public static final String OUTBOX_ID = "x-outbox-id";

    public ReceivedRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        headers = Map.copyOf(headers);
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(receivedAt, "receivedAt");
    }

    /**
     * Returns the first value of a header, or {@code null} if absent.
     *
     * @param name the header name, in any case
     */
    public String header(String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /** Returns the {@value #OUTBOX_ID} header, or {@code null} if absent. */
    public String outboxId() {
        return header(OUTBOX_ID);
    }
}
