package org.eeoutbox.demo;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The webhook receiver: a JDK HTTP server on a loopback port that takes {@code POST PATH}, records
 * it in a {@link Tally} and answers {@code 204}; any other request gets {@code 404}. A
 * {@link Responder} may refuse deliveries instead (a refused one is not recorded). It can be
 * stopped (connections are refused) and started again on the same port. Thread-safe.
 */
public final class WebhookReceiver implements AutoCloseable {

    /** Decides the status of a delivery; a status other than 2xx refuses it. */
    @FunctionalInterface
    public interface Responder {

        /** Accepts every delivery. */
        Responder ACCEPT = body -> 204;

        /** Returns the HTTP status for a delivery with this body. */
        int status(String body);
    }

    private final String path;
    private final Tally tally;
    private final ExecutorService executor;
    private final AtomicLong accepted = new AtomicLong();
    private volatile Responder responder = Responder.ACCEPT;
    private int port; // 0 until first started; guarded by this
    private HttpServer server; // null while stopped; guarded by this

    /** Starts a receiver for {@code path} on a free port. */
    public WebhookReceiver(String path, Tally tally) {
        this.path = path;
        this.tally = tally;
        AtomicInteger threads = new AtomicInteger();
        this.executor = Executors.newFixedThreadPool(16, runnable -> {
            Thread thread = new Thread(runnable, "webhook-receiver-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        start();
    }

    /** Returns the base URL, {@code http://127.0.0.1:PORT}. */
    public synchronized String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** Returns the URL that receives the webhooks. */
    public String url() {
        return baseUrl() + path;
    }

    /** Starts listening (again, on the same port); does nothing if it listens already. */
    public synchronized void start() {
        if (server != null) {
            return;
        }
        try {
            HttpServer started = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 128);
            started.createContext("/", this::handle);
            started.setExecutor(executor);
            started.start();
            server = started;
            port = started.getAddress().getPort();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start the webhook receiver on port " + port, e);
        }
    }

    /** Returns whether it listens (not stopped). */
    public synchronized boolean isListening() {
        return server != null;
    }

    /** Answers the following deliveries as {@code responder} decides. */
    public void respondWith(Responder responder) {
        this.responder = responder;
    }

    /** Returns how many deliveries it accepted (recorded), duplicates included. */
    public long accepted() {
        return accepted.get();
    }

    /** Stops listening at once: open connections are closed, new ones refused. */
    public synchronized void stop() {
        if (server != null) {
            server.stop(0);
            server = null;
        }
    }

    @Override
    public void close() {
        stop();
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body;
            try (InputStream in = exchange.getRequestBody()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!"POST".equals(exchange.getRequestMethod()) || !path.equals(exchange.getRequestURI().getPath())) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            int status = responder.status(body);
            if (status / 100 == 2) {
                // Recorded before answering, as a consumer that processes, then acknowledges.
                tally.record(exchange.getRequestHeaders().getFirst("x-outbox-id"), body, Instant.now());
                accepted.incrementAndGet();
            }
            exchange.sendResponseHeaders(status, -1);
        }
    }
}
