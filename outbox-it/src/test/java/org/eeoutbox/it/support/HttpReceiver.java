package org.eeoutbox.it.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * An HTTP server on a free loopback port that records every request and answers as scripted, for
 * the deliveries made from inside the server.
 *
 * <p>Answers, first match wins: {@code 503} while {@link #down(boolean) down}; else the status
 * scripted for the exact path with {@link #respond(String, int)}; else {@code 200}. Every request
 * is recorded with the status it got, including the ones answered with an error. Bodies of answers
 * are empty. Thread-safe; requests are served by a small pool of daemon threads.
 */
public final class HttpReceiver implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(HttpReceiver.class.getName());

    private final HttpServer server;
    private final ExecutorService executor;
    private final List<ReceivedRequest> requests = new ArrayList<>(); // guarded by itself
    private final Map<String, Integer> statusByPath = new ConcurrentHashMap<>();
    private volatile boolean down;

    private HttpReceiver(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Starts a receiver on a free port of 127.0.0.1.
     *
     * @throws UncheckedIOException if the server cannot bind
     */
    public static HttpReceiver start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
            ExecutorService executor = Executors.newFixedThreadPool(4, runnable -> {
                Thread thread = new Thread(runnable, "it-http-receiver");
                thread.setDaemon(true);
                return thread;
            });
            HttpReceiver receiver = new HttpReceiver(server, executor);
            server.createContext("/", receiver::handle);
            server.setExecutor(executor);
            server.start();
            LOG.log(System.Logger.Level.INFO, "HTTP receiver listening on {0}", receiver.url());
            return receiver;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start the HTTP receiver", e);
        }
    }

    /** Returns the base URL, {@code http://127.0.0.1:PORT}, without trailing slash. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Makes requests to exactly {@code path} answer {@code status} (until {@link #reset()}). */
    public void respond(String path, int status) {
        statusByPath.put(path, status);
    }

    /** While {@code true}, every request is answered {@code 503 Service Unavailable}. */
    public void down(boolean down) {
        this.down = down;
    }

    /** Forgets the recorded requests and every script: back to {@code 200} for all paths. */
    public void reset() {
        down = false;
        statusByPath.clear();
        synchronized (requests) {
            requests.clear();
        }
    }

    /** Returns a snapshot of all requests recorded since start or the last {@link #reset()}, in arrival order. */
    public List<ReceivedRequest> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    /** Returns the recorded requests to exactly {@code path}, in arrival order. */
    public List<ReceivedRequest> requests(String path) {
        return requests().stream().filter(r -> r.path().equals(path)).toList();
    }

    /**
     * Waits until at least {@code count} recorded requests match {@code filter}.
     *
     * @return the matching requests (at least {@code count}), in arrival order
     * @throws AssertionError if fewer arrived within {@code timeout}; the message lists all requests
     */
    public List<ReceivedRequest> await(Predicate<ReceivedRequest> filter, int count, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (requests) {
            while (true) {
                List<ReceivedRequest> matching = requests.stream().filter(filter).toList();
                long left = deadline - System.nanoTime();
                if (matching.size() >= count) {
                    return matching;
                }
                if (left <= 0) {
                    throw new AssertionError("Expected " + count + " matching requests within " + timeout
                            + ", got " + matching.size() + "; all received: " + requests);
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(requests, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("Interrupted while waiting for requests", e);
                }
            }
        }
    }

    /** Waits until at least {@code count} requests to exactly {@code path} arrived; see {@link #await}. */
    public List<ReceivedRequest> await(String path, int count, Duration timeout) {
        return await(r -> r.path().equals(path), count, timeout);
    }

    /** Stops the server at once and its threads. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body;
            try (InputStream in = exchange.getRequestBody()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            String path = exchange.getRequestURI().getPath();
            int status = down ? 503 : statusByPath.getOrDefault(path, 200);
            Map<String, List<String>> headers = new HashMap<>();
            exchange.getRequestHeaders().forEach((name, values) ->
                    headers.put(name.toLowerCase(Locale.ROOT), List.copyOf(values)));
            ReceivedRequest request = new ReceivedRequest(exchange.getRequestMethod(), path,
                    exchange.getRequestURI().getRawQuery(), headers, body, status, Instant.now());
            synchronized (requests) {
                requests.add(request);
                requests.notifyAll();
            }
            exchange.sendResponseHeaders(status, -1);
        }
    }
}
