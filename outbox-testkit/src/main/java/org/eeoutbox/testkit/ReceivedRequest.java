package org.eeoutbox.testkit;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One request as {@link HttpReceiver} recorded it, immutable.
 *
 * @param method     the HTTP method, such as {@code POST}
 * @param path       the decoded request path without query, such as {@code /hooks/orders}
 * @param query      the raw query string, or {@code null}
 * @param headers    header names in lower case, each with its values in arrival order
 * @param body       the body decoded as UTF-8 (empty if none)
 * @param status     the status the receiver answered with, or {@value #ROUTED} if a
 *                   {@linkplain HttpReceiver.Handler route handler} answered it
 * @param receivedAt when the receiver had read the request
 */
public record ReceivedRequest(String method, String path, String query, Map<String, List<String>> headers,
        String body, int status, Instant receivedAt) {

    /** The header carrying the outbox entry id. */
    public static final String OUTBOX_ID = "x-outbox-id";

    /** The {@link #status()} of a request answered by a route handler (recorded before it answers). */
    public static final int ROUTED = 0;

    public ReceivedRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        headers = Map.copyOf(headers);
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(receivedAt, "receivedAt");
    }

    /** Returns this request with the status it was answered with. */
    ReceivedRequest withStatus(int answered) {
        return new ReceivedRequest(method, path, query, headers, body, answered, receivedAt);
    }

    /** Returns the path followed by {@code ?query} if there is one, such as {@code /ok?tenant=acme}. */
    public String target() {
        return query == null ? path : path + "?" + query;
    }

    /**
     * Returns all values of a header in arrival order, empty if absent.
     *
     * @param name the header name, in any case
     */
    public List<String> headers(String name) {
        return headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
    }

    /**
     * Returns the first value of a header, or {@code null} if absent.
     *
     * @param name the header name, in any case
     */
    public String header(String name) {
        List<String> values = headers(name);
        return values.isEmpty() ? null : values.get(0);
    }

    /** Returns the {@value #OUTBOX_ID} header, or {@code null} if absent. */
    public String outboxId() {
        return header(OUTBOX_ID);
    }
}
