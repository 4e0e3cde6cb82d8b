package org.eeoutbox.http;

import java.time.Duration;

/**
 * How an {@link HttpMessageDeliverer} sends: its timeouts and how many requests it keeps in
 * flight at once. Immutable; the constructor checks every range and throws
 * {@link IllegalArgumentException} naming the component and its value.
 *
 * @param connectTimeout how long to wait for a connection (TCP and TLS), in
 *                       {@code [1 ms, 5 min]}; default 5 s
 * @param requestTimeout how long to wait for the response once the request is under way, in
 *                       {@code [1 ms, 10 min]}; default 10 s
 * @param maxInFlight    the most requests the deliverer has open at once, across all callers,
 *                       in {@code [1, 1024]}; default {@value #DEFAULT_MAX_IN_FLIGHT}. It caps the
 *                       deliverer's rate at {@code maxInFlight / latency} (256 requests at 20 ms:
 *                       12,800/s) and, over HTTP/1.1, the connections it opens to one receiver
 */
public record HttpDelivererSettings(Duration connectTimeout, Duration requestTimeout, int maxInFlight) {

    /** The shortest timeout accepted, 1 ms. */
    public static final Duration MIN_TIMEOUT = Duration.ofMillis(1);
    /** The longest connect timeout accepted, 5 min. */
    public static final Duration MAX_CONNECT_TIMEOUT = Duration.ofMinutes(5);
    /** The longest request timeout accepted, 10 min. */
    public static final Duration MAX_REQUEST_TIMEOUT = Duration.ofMinutes(10);
    /** The largest cap on requests in flight accepted, {@value}. */
    public static final int MAX_IN_FLIGHT = 1024;

    /**
     * The default cap on requests in flight, {@value}: above twice the processor's default batch
     * size (100), so that a default batch goes out in one wave and takes at most one
     * {@link #attemptTimeout()}, and in lease mode (the default for webhooks) a worker's next batch
     * goes out while its previous one is still in flight.
     */
    public static final int DEFAULT_MAX_IN_FLIGHT = 256;

    /** Connect timeout 5 s, request timeout 10 s, {@value #DEFAULT_MAX_IN_FLIGHT} requests in flight. */
    public static final HttpDelivererSettings DEFAULT =
            new HttpDelivererSettings(Duration.ofSeconds(5), Duration.ofSeconds(10), DEFAULT_MAX_IN_FLIGHT);

    public HttpDelivererSettings {
        checkRange("connectTimeout", connectTimeout, MAX_CONNECT_TIMEOUT);
        checkRange("requestTimeout", requestTimeout, MAX_REQUEST_TIMEOUT);
        if (maxInFlight < 1 || maxInFlight > MAX_IN_FLIGHT) {
            throw new IllegalArgumentException(
                    HttpMessages.intOutOfRange("maxInFlight", 1, MAX_IN_FLIGHT, maxInFlight));
        }
    }

    private static void checkRange(String name, Duration value, Duration max) {
        if (value == null) {
            throw new IllegalArgumentException(HttpMessages.mustNotBeNull(name));
        }
        if (value.compareTo(MIN_TIMEOUT) < 0 || value.compareTo(max) > 0) {
            throw new IllegalArgumentException(HttpMessages.durationOutOfRange(name, MIN_TIMEOUT, max, value));
        }
    }

    /**
     * Returns the longest one attempt may take, {@code connectTimeout + requestTimeout}: the
     * deliverer gives up on a request, its response body included, after that long. A batch of
     * {@code n} entries from one caller ends within about {@code ceil(n / maxInFlight)} times
     * this, more if other callers share the deliverer's in-flight permits; size the
     * transaction timeout of the processor accordingly.
     */
    public Duration attemptTimeout() {
        return connectTimeout.plus(requestTimeout);
    }

    /** Returns a copy with the given connect timeout. */
    public HttpDelivererSettings withConnectTimeout(Duration timeout) {
        return new HttpDelivererSettings(timeout, requestTimeout, maxInFlight);
    }

    /** Returns a copy with the given request timeout. */
    public HttpDelivererSettings withRequestTimeout(Duration timeout) {
        return new HttpDelivererSettings(connectTimeout, timeout, maxInFlight);
    }

    /** Returns a copy with the given cap on requests in flight. */
    public HttpDelivererSettings withMaxInFlight(int max) {
        return new HttpDelivererSettings(connectTimeout, requestTimeout, max);
    }
}
