package org.eeoutbox.http;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.SocketTimeoutException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.config.TlsConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;
import org.apache.hc.core5.http.nio.CapacityChannel;
import org.apache.hc.core5.http.nio.entity.AsyncEntityProducers;
import org.apache.hc.core5.http.nio.support.AsyncRequestBuilder;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.http2.HttpVersionPolicy;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * The {@link HttpSender} on Apache HttpClient 5's asynchronous client (artifact
 * {@code org.apache.httpcomponents.client5:httpclient5}, an optional dependency of this module).
 * All its threads come from the given {@link ThreadFactory}: one I/O thread per processor and one
 * that starts them; inside a server pass a {@code ManagedThreadFactory}. {@link #close()} ends
 * them. One connection pool of {@code maxInFlight} connections per receiver. Thread-safe.
 *
 * <p>Its failures are translated for {@link HttpOutcomes#failure}: a connect timeout becomes a
 * {@link HttpConnectTimeoutException}, a response timeout (no data for the request's timeout) a
 * {@link HttpTimeoutException}, each with the original as its cause.
 */
final class ApacheHttpSender implements HttpSender {

    private static final Logger LOG = System.getLogger(HttpMessageDeliverer.class.getName());
    private static final TimeValue CLOSE_WAIT = TimeValue.ofSeconds(5);
    /**
     * How often the I/O threads check timeouts. The client's default, 1 s, let a connect timeout of
     * 300 ms run on to the attempt's deadline (a test showed it); 100 ms is ten wake-ups a second per I/O
     * thread.
     */
    private static final TimeValue TIMEOUT_CHECK_INTERVAL = TimeValue.ofMilliseconds(100);

    private final CloseableHttpAsyncClient client;

    /**
     * Creates and starts the client.
     *
     * @param threads    makes every thread of the client; owned by the caller
     * @param settings   the connect and request timeouts and the pool's size
     * @param sslContext the TLS trust, or {@code null} for the JVM default
     * @throws IllegalStateException if the JVM has no default {@link SSLContext}
     */
    ApacheHttpSender(ThreadFactory threads, HttpDelivererSettings settings, SSLContext sslContext) {
        ConnectionConfig connections = ConnectionConfig.custom()
                .setConnectTimeout(Timeout.of(settings.connectTimeout()))
                .setSocketTimeout(Timeout.of(settings.requestTimeout()))
                .build();
        this.client = HttpAsyncClients.custom()
                .setConnectionManager(PoolingAsyncClientConnectionManagerBuilder.create()
                        .setTlsStrategy(ClientTlsStrategyBuilder.create().setSslContext(trust(sslContext)).buildAsync())
                        .setDefaultTlsConfig(TlsConfig.custom()
                                .setVersionPolicy(HttpVersionPolicy.FORCE_HTTP_1)
                                .build())
                        .setDefaultConnectionConfig(connections)
                        .setMaxConnTotal(settings.maxInFlight())
                        .setMaxConnPerRoute(settings.maxInFlight())
                        .build())
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setConnectionRequestTimeout(Timeout.of(settings.attemptTimeout()))
                        .setResponseTimeout(Timeout.of(settings.requestTimeout()))
                        .build())
                .setIOReactorConfig(IOReactorConfig.custom().setSelectInterval(TIMEOUT_CHECK_INTERVAL).build())
                .setThreadFactory(threads)
                .disableRedirectHandling()
                .disableAutomaticRetries()
                .disableCookieManagement()
                .disableAuthCaching()
                .disableContentCompression()
                .build();
        client.start();
    }

    @Override
    public Exchange send(OutgoingRequest request) {
        AsyncRequestBuilder builder = AsyncRequestBuilder.create(request.method())
                .setUri(request.target())
                .setEntity(AsyncEntityProducers.create(request.body(), null));
        // addHeader: the names are already unique (OutgoingRequest), and setHeader searches for each.
        request.headers().forEach(builder::addHeader);
        HttpClientContext context = HttpClientContext.create();
        context.setRequestConfig(RequestConfig.custom().setResponseTimeout(Timeout.of(request.timeout())).build());
        ApacheExchange exchange = new ApacheExchange();
        exchange.start(client.execute(builder.build(), exchange, context, exchange));
        return exchange;
    }

    /** Stops the client and waits up to 5 s for its threads to end. */
    @Override
    public void close() {
        client.close(CloseMode.GRACEFUL);
        try {
            client.awaitShutdown(CLOSE_WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.log(Level.WARNING, "Interrupted while the HTTP client shut down");
        }
    }

    @Override
    public String toString() {
        return "apache";
    }

    private static SSLContext trust(SSLContext sslContext) {
        if (sslContext != null) {
            return sslContext;
        }
        try {
            return SSLContext.getDefault();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("The JVM has no default TLS context: " + e.getMessage(), e);
        }
    }

    /** The exception {@link HttpOutcomes#failure} classifies, for one of the client's failures. */
    static Throwable translate(Exception error) {
        if (HttpOutcomes.find(error, SSLException.class) != null) {
            return error;
        }
        if (HttpOutcomes.find(error, ConnectTimeoutException.class) != null) {
            return withCause(new HttpConnectTimeoutException(error.getMessage()), error);
        }
        if (HttpOutcomes.find(error, SocketTimeoutException.class) != null) {
            return withCause(new HttpTimeoutException(error.getMessage()), error);
        }
        return error;
    }

    private static Throwable withCause(Throwable translated, Throwable cause) {
        translated.initCause(cause);
        return translated;
    }

    /**
     * One request: reads the response's head and at most {@link HttpMessageDeliverer#MAX_BODY_BYTES}
     * of its body; past that it completes the reply and fails the exchange on purpose, so that the
     * client closes the connection instead of reading on.
     */
    private static final class ApacheExchange implements Exchange, AsyncResponseConsumer<HttpReply>,
            FutureCallback<HttpReply> {

        private final CompletableFuture<HttpReply> reply = new CompletableFuture<>();
        private final BodyPrefix.Collector body = new BodyPrefix.Collector(HttpMessageDeliverer.MAX_BODY_BYTES);
        private volatile HttpResponse head;
        private volatile FutureCallback<HttpReply> done;
        private volatile Future<HttpReply> future;

        void start(Future<HttpReply> started) {
            future = started;
            if (reply.isDone()) {
                started.cancel(true);
            }
        }

        @Override
        public CompletableFuture<HttpReply> reply() {
            return reply;
        }

        @Override
        public HttpReply cutShort() {
            HttpResponse response = head;
            HttpReply partial = response == null ? null : reply(response, body.cut());
            if (partial != null) {
                reply.complete(partial);
            }
            cancel();
            return partial;
        }

        @Override
        public void cancel() {
            reply.cancel(false);
            Future<HttpReply> started = future;
            if (started != null) {
                started.cancel(true);
            }
        }

        // ---- AsyncResponseConsumer: called by the client's I/O thread ----

        @Override
        public void consumeResponse(HttpResponse response, EntityDetails entity, HttpContext context,
                                    FutureCallback<HttpReply> callback) {
            head = response;
            if (entity == null) {
                callback.completed(reply(response, body.end()));
            } else {
                done = callback;
            }
        }

        @Override
        public void informationResponse(HttpResponse response, HttpContext context) {
            // 1xx: the final response follows.
        }

        @Override
        public void updateCapacity(CapacityChannel capacityChannel) throws IOException {
            capacityChannel.update(Integer.MAX_VALUE);
        }

        @Override
        public void consume(ByteBuffer src) throws IOException {
            BodyPrefix full = body.append(src);
            if (full != null) {
                reply.complete(reply(head, full));
                throw new IOException("response body longer than " + HttpMessageDeliverer.MAX_BODY_BYTES
                        + " bytes: not read on");
            }
        }

        @Override
        public void streamEnd(List<? extends Header> trailers) {
            BodyPrefix whole = body.end();
            if (whole != null) {
                done.completed(reply(head, whole));
            }
        }

        @Override
        public void releaseResources() {
            // Nothing held: the prefix buffer is small and reused by no one.
        }

        // ---- FutureCallback: the exchange's end ----

        @Override
        public void completed(HttpReply result) {
            reply.complete(result);
        }

        /**
         * Both the consumer's and the callback's: the first report wins. A response timeout after
         * the status arrived means only the body is late: the status decides, with the body so far,
         * as the deliverer does at the attempt's deadline.
         */
        @Override
        public void failed(Exception error) {
            HttpResponse response = head;
            if (response != null && HttpOutcomes.find(error, SocketTimeoutException.class) != null) {
                reply.complete(reply(response, body.cut()));
            } else {
                reply.completeExceptionally(translate(error));
            }
        }

        @Override
        public void cancelled() {
            reply.cancel(false);
        }

        private static HttpReply reply(HttpResponse response, BodyPrefix prefix) {
            return new HttpReply(response.getCode(), value(response.getFirstHeader("Location")),
                    value(response.getFirstHeader("Retry-After")), prefix);
        }

        private static String value(Header header) {
            return header == null ? null : header.getValue();
        }
    }
}
