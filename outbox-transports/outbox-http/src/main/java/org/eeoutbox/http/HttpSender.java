package org.eeoutbox.http;

import java.util.concurrent.CompletableFuture;

/**
 * The seam between {@link HttpMessageDeliverer} and an HTTP client library: sends one
 * {@link OutgoingRequest} and reports its {@link HttpReply} or its failure. Batching, the cap on
 * requests in flight, the attempt's deadline, classification and {@code Retry-After} stay in the
 * deliverer; an implementation only sends, reads at most a bounded body prefix and translates its
 * library's failures.
 *
 * <p>Every implementation: HTTP/1.1, redirects never followed, no automatic retries, no cookies;
 * TLS certificates and host names verified; the connect timeout and the request's timeout
 * applied. Implementations are thread-safe.
 */
interface HttpSender extends AutoCloseable {

    /**
     * Starts sending {@code request}; the exchange's {@link Exchange#reply()} completes with the
     * response or fails. A failure's cause chain holds, for the classification of
     * {@link HttpOutcomes#failure}: an {@link javax.net.ssl.SSLException} for any TLS failure, a
     * {@link java.net.http.HttpConnectTimeoutException} when the connect timeout passed, a
     * {@link java.net.http.HttpTimeoutException} when the request's timeout passed, a
     * {@link java.net.ConnectException} when the connection was refused, another
     * {@link java.io.IOException} for any other I/O failure.
     *
     * @throws IllegalArgumentException if the client refuses the request before sending it; after
     *                                  {@link #close()} what a call does is the client's (the
     *                                  deliverer never sends once closed)
     */
    Exchange send(OutgoingRequest request);

    /**
     * Stops the client: ends its threads and closes its connections; requests still in flight
     * fail. Owned resources only (an executor or thread factory given to it stays open).
     * Idempotent; never throws.
     */
    @Override
    void close();

    /** One request under way. Thread-safe. */
    interface Exchange {

        /**
         * Completes with the status, the headers the deliverer reads and at most
         * {@link HttpMessageDeliverer#MAX_BODY_BYTES} of the body (a longer body is not read on:
         * its connection is closed), or fails as {@link HttpSender#send} says.
         */
        CompletableFuture<HttpReply> reply();

        /**
         * Ends the exchange at its deadline. If the status line and headers have arrived, completes
         * {@link #reply()} with them and the body received so far (marked truncated, unless it had
         * ended) and returns that reply; otherwise returns {@code null}. Either way the request is
         * then cancelled. Never throws.
         */
        HttpReply cutShort();

        /** Abandons the request, closing its connection if it is still under way. Idempotent. */
        void cancel();
    }
}
