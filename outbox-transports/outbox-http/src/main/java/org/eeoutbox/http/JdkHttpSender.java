package org.eeoutbox.http;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;

/**
 * The {@link HttpSender} on the JDK {@link HttpClient}: no dependency. The client runs its
 * asynchronous work on the given executor and keeps one selector thread of its own, which ends
 * once the sender is closed (Java 21 and later) or unreachable. Thread-safe.
 */
final class JdkHttpSender implements HttpSender {

    private static final Logger LOG = System.getLogger(HttpMessageDeliverer.class.getName());

    private final HttpClient client;

    /**
     * @param executor   runs the client's asynchronous work; owned by the caller
     * @param settings   the connect timeout
     * @param sslContext the TLS trust, or {@code null} for the JVM default
     */
    JdkHttpSender(Executor executor, HttpDelivererSettings settings, SSLContext sslContext) {
        HttpClient.Builder builder = HttpClient.newBuilder()
                .executor(executor)
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(settings.connectTimeout());
        if (sslContext != null) {
            builder.sslContext(sslContext);
        }
        this.client = builder.build();
    }

    @Override
    public Exchange send(OutgoingRequest request) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(request.target())
                .timeout(request.timeout())
                .method(request.method(), HttpRequest.BodyPublishers.ofByteArray(request.body()));
        request.headers().forEach(builder::header);
        return new JdkExchange(client, builder.build());
    }

    /** On Java 21 and later closes the client, which ends its selector thread. */
    @Override
    public void close() {
        if (client instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                LOG.log(Level.WARNING, "Closing the HTTP client failed", e);
            }
        }
    }

    @Override
    public String toString() {
        return "jdk";
    }

    /** One {@code sendAsync}; the client's threads set the response's head and body reader. */
    private static final class JdkExchange implements Exchange {

        private volatile HttpResponse.ResponseInfo info;
        private volatile BoundedBodySubscriber body;
        private final CompletableFuture<HttpResponse<BodyPrefix>> response;
        private final CompletableFuture<HttpReply> reply;

        JdkExchange(HttpClient client, HttpRequest request) {
            this.response = client.sendAsync(request, head -> {
                info = head;
                BoundedBodySubscriber subscriber = new BoundedBodySubscriber(HttpMessageDeliverer.MAX_BODY_BYTES);
                body = subscriber;
                return subscriber;
            });
            this.reply = new CompletableFuture<>();
            response.whenComplete((done, error) -> {
                if (error != null) {
                    reply.completeExceptionally(error);
                } else {
                    reply.complete(reply(done.statusCode(), done.headers(), done.body()));
                }
            });
        }

        @Override
        public CompletableFuture<HttpReply> reply() {
            return reply;
        }

        @Override
        public HttpReply cutShort() {
            HttpResponse.ResponseInfo head = info;
            BoundedBodySubscriber subscriber = body;
            HttpReply partial = null;
            if (head != null && subscriber != null) {
                partial = reply(head.statusCode(), head.headers(), subscriber.finishEarly());
                reply.complete(partial);
            }
            cancel();
            return partial;
        }

        @Override
        public void cancel() {
            response.cancel(true);
        }

        private static HttpReply reply(int status, HttpHeaders headers, BodyPrefix body) {
            return new HttpReply(status, headers.firstValue("Location").orElse(null),
                    headers.firstValue("Retry-After").orElse(null), body);
        }
    }
}
