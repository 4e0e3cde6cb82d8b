package org.eeoutbox.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Predicate;
import javax.net.ssl.SSLContext;

/**
 * The one HTTP receiver of the tests, the demo and the bench: a JDK {@link HttpServer} (or
 * {@link HttpsServer}) on a loopback port that records requests and answers as scripted. Build it
 * and start it with {@link #builder()}: {@code HttpReceiver.builder().start()} for the defaults.
 *
 * <p><b>Answers</b>, first match wins:
 * <ol>
 * <li>{@code 503} while {@link #down(boolean) down};</li>
 * <li>a {@linkplain #route(String, Handler) route}: the handler of the longest route path that
 *     starts the request path (string prefix, as {@code HttpServer} contexts) writes the whole
 *     answer; the request is recorded first, with status {@value ReceivedRequest#ROUTED};</li>
 * <li>the status {@linkplain #respond(String, int) scripted} for exactly the request path;</li>
 * <li>the {@linkplain #respondWith(Responder) responder}, by default {@code 200}.</li>
 * </ol>
 * Answers 1, 3 and 4 have no body; they are recorded with their status before they are sent, and a
 * 2xx one is passed to the {@linkplain Builder#onAccepted(Consumer) accepted listener} first, as a
 * consumer that processes, then acknowledges. A {@linkplain #latency(Duration) latency} delays them
 * without holding a server thread.
 *
 * <p><b>Recording</b>: every request, in arrival order, unless {@linkplain Builder#recording(boolean)
 * turned off} (then only {@link #received()} and {@link #accepted()} count). Two views: the list
 * ({@link #requests()}, {@link #await(Predicate, int, Duration)}), and a queue that
 * {@link #next()}/{@link #poll()} take from without removing from the list.
 *
 * <p><b>Thread-safety</b>: every method may be called from any thread; requests are served by a
 * fixed pool of daemon threads ({@linkplain Builder#threads(int) four} by default). Handlers,
 * responders and listeners run on those threads and must be thread-safe.
 *
 * <p><b>Lifetime</b>: listening when built; {@link #stop()} closes the port (connections are
 * refused) and {@link #start()} listens again on the same port, keeping records and scripts.
 * {@link #close()} stops it and its threads for good; it is idempotent.
 */
public final class HttpReceiver implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(HttpReceiver.class.getName());

    /** Decides the status of a request that no route, script or down mode answers. */
    @FunctionalInterface
    public interface Responder {

        /** Returns the HTTP status for {@code request} (its {@link ReceivedRequest#status()} is 0). */
        int status(ReceivedRequest request);

        /** Answers every request with {@code status}. */
        static Responder always(int status) {
            return new Fixed(status);
        }
    }

    /** A responder that needs no request: the receiver then builds none unless it records. */
    private record Fixed(int status) implements Responder {

        @Override
        public int status(ReceivedRequest request) {
            return status;
        }
    }

    /** Writes the whole answer of a routed request; the exchange is closed afterwards. */
    @FunctionalInterface
    public interface Handler {

        /**
         * Answers {@code exchange}, whose body was read already. An {@link IOException} (the client
         * went away, as some tests intend) is ignored.
         */
        void handle(HttpExchange exchange) throws IOException, InterruptedException;
    }

    /** The options of a receiver; not thread-safe, use it on one thread. */
    public static final class Builder {

        private SSLContext tls;
        private int threads = 4;
        private int backlog = 50;
        private String name = "http-receiver";
        private boolean recording = true;
        private Responder responder = Responder.always(200);
        private Consumer<ReceivedRequest> onAccepted; // null for none
        private Duration latency = Duration.ZERO;
        private final Map<String, Handler> routes = new LinkedHashMap<>();

        private Builder() {
        }

        /** Serves HTTPS with {@code serverContext} (its key and certificate) instead of HTTP. */
        public Builder tls(SSLContext serverContext) {
            this.tls = Objects.requireNonNull(serverContext, "serverContext");
            return this;
        }

        /** Serves requests on {@code threads} daemon threads (default 4): at most that many at once. */
        public Builder threads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be at least 1, got " + threads);
            }
            this.threads = threads;
            return this;
        }

        /** Sets the listen backlog (default 50). */
        public Builder backlog(int backlog) {
            this.backlog = backlog;
            return this;
        }

        /** Names the threads ({@code name-N}) and the log lines (default {@code http-receiver}). */
        public Builder name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /** Whether requests are kept (default {@code true}); off, only the counters count (load tests). */
        public Builder recording(boolean recording) {
            this.recording = recording;
            return this;
        }

        /** Sets the initial {@link HttpReceiver#respondWith(Responder) responder}. */
        public Builder respondWith(Responder responder) {
            this.responder = Objects.requireNonNull(responder, "responder");
            return this;
        }

        /** Sets the listener told of every 2xx answer of the responder or a script, before it is sent. */
        public Builder onAccepted(Consumer<ReceivedRequest> listener) {
            this.onAccepted = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /** Sets the initial {@link HttpReceiver#latency(Duration) latency}. */
        public Builder latency(Duration latency) {
            this.latency = requireNotNegative(latency);
            return this;
        }

        /** Adds a {@link HttpReceiver#route(String, Handler) route}. */
        public Builder route(String path, Handler handler) {
            routes.put(requirePath(path), Objects.requireNonNull(handler, "handler"));
            return this;
        }

        /**
         * Starts the receiver on a free loopback port.
         *
         * @throws UncheckedIOException if it cannot bind
         */
        public HttpReceiver start() {
            HttpReceiver receiver = new HttpReceiver(this);
            receiver.start();
            LOG.log(System.Logger.Level.INFO, "{0} listening on {1}", name, receiver.url());
            return receiver;
        }
    }

    private final SSLContext tls;
    private final int backlog;
    private final String name;
    private final boolean recording;
    private final Consumer<ReceivedRequest> onAccepted;
    private final ExecutorService executor;
    private final Map<String, Handler> routes = new ConcurrentHashMap<>();
    private final Map<String, Integer> statusByPath = new ConcurrentHashMap<>();
    private final List<ReceivedRequest> requests = new ArrayList<>(); // guarded by itself
    private int taken; // how many requests next()/poll() took; guarded by requests
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong accepted = new AtomicLong();
    private volatile Responder responder;
    private volatile Duration latency;
    private volatile boolean down;
    private ScheduledExecutorService delayer; // created at the first latency; guarded by this
    private HttpServer server; // null while stopped; guarded by this
    private int port; // 0 until first bound; guarded by this
    private boolean closed; // guarded by this

    private HttpReceiver(Builder builder) {
        this.tls = builder.tls;
        this.backlog = builder.backlog;
        this.name = builder.name;
        this.recording = builder.recording;
        this.onAccepted = builder.onAccepted;
        this.responder = builder.responder;
        this.latency = builder.latency;
        this.routes.putAll(builder.routes);
        this.executor = Executors.newFixedThreadPool(builder.threads, daemonThreads(name));
    }

    /** Returns a builder: HTTP, 4 threads, recording, answering {@code 200}. */
    public static Builder builder() {
        return new Builder();
    }

    // ---- Addresses ----

    /** Returns the base URL, {@code http://127.0.0.1:PORT} (or {@code https}), without trailing slash. */
    public String url() {
        return (tls == null ? "http" : "https") + "://127.0.0.1:" + port();
    }

    /** Returns {@link #url()} followed by {@code path}, such as {@code /hooks/orders}. */
    public String url(String path) {
        return url() + path;
    }

    /** Returns {@link #url()} as a URI. */
    public URI uri() {
        return URI.create(url());
    }

    /** Returns the port; it stays the same across {@link #stop()} and {@link #start()}. */
    public synchronized int port() {
        return port;
    }

    // ---- Scripts ----

    /**
     * Answers requests whose path starts with {@code path} with {@code handler}, from now on (until
     * {@link #close()}; {@link #reset()} keeps routes).
     *
     * @throws IllegalArgumentException if {@code path} does not start with {@code /} or has a route
     */
    public HttpReceiver route(String path, Handler handler) {
        Objects.requireNonNull(handler, "handler");
        if (routes.putIfAbsent(requirePath(path), handler) != null) {
            throw new IllegalArgumentException("A route for " + path + " exists already");
        }
        return this;
    }

    /** Makes requests to exactly {@code path} answer {@code status} (until {@link #reset()}). */
    public void respond(String path, int status) {
        statusByPath.put(requirePath(path), status);
    }

    /** Answers requests that no route or script answers as {@code responder} decides. */
    public void respondWith(Responder responder) {
        this.responder = Objects.requireNonNull(responder, "responder");
    }

    /** While {@code true}, every request is answered {@code 503 Service Unavailable}. */
    public void down(boolean down) {
        this.down = down;
    }

    /** Delays the answers that are not routed by {@code latency} ({@link Duration#ZERO} for none). */
    public void latency(Duration latency) {
        this.latency = requireNotNegative(latency);
    }

    /**
     * Forgets the recorded requests, the scripted statuses, down mode and latency; keeps routes, the
     * responder and the counters.
     */
    public void reset() {
        down = false;
        latency = Duration.ZERO;
        statusByPath.clear();
        synchronized (requests) {
            requests.clear();
            taken = 0;
        }
    }

    // ---- Records ----

    /** Returns how many requests arrived since start, recorded or not. */
    public long received() {
        return received.get();
    }

    /** Returns how many requests got a 2xx answer from a script or the responder since start. */
    public long accepted() {
        return accepted.get();
    }

    /**
     * Returns a snapshot of all requests recorded since start or the last {@link #reset()}, in
     * arrival order.
     *
     * @throws IllegalStateException if recording is off
     */
    public List<ReceivedRequest> requests() {
        requireRecording();
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    /** Returns the recorded requests to exactly {@code path}, in arrival order; see {@link #requests()}. */
    public List<ReceivedRequest> requests(String path) {
        return requests().stream().filter(r -> r.path().equals(path)).toList();
    }

    /**
     * Waits until at least {@code count} recorded requests match {@code filter}.
     *
     * @return the matching requests (at least {@code count}), in arrival order
     * @throws AssertionError        if fewer arrived within {@code timeout}; the message lists all
     * @throws IllegalStateException if recording is off
     */
    public List<ReceivedRequest> await(Predicate<ReceivedRequest> filter, int count, Duration timeout) {
        requireRecording();
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (requests) {
            while (true) {
                List<ReceivedRequest> matching = requests.stream().filter(filter).toList();
                if (matching.size() >= count) {
                    return matching;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("Expected " + count + " matching requests within " + timeout
                            + ", got " + matching.size() + "; all received: " + requests);
                }
                waitForRequests(left);
            }
        }
    }

    /** Waits until at least {@code count} requests to exactly {@code path} arrived; see {@link #await}. */
    public List<ReceivedRequest> await(String path, int count, Duration timeout) {
        return await(r -> r.path().equals(path), count, timeout);
    }

    /**
     * Takes the next recorded request that {@code next}/{@link #poll()} did not take yet, waiting
     * up to 10 seconds for it.
     *
     * @return the request, or {@code null} if none arrived in time
     * @throws IllegalStateException if recording is off
     */
    public ReceivedRequest next() throws InterruptedException {
        return next(Duration.ofSeconds(10));
    }

    /** Takes the next request like {@link #next()}, waiting up to {@code timeout}; {@code null} if none. */
    public ReceivedRequest next(Duration timeout) throws InterruptedException {
        requireRecording();
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (requests) {
            while (taken == requests.size()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return null;
                }
                TimeUnit.NANOSECONDS.timedWait(requests, left);
            }
            return requests.get(taken++);
        }
    }

    /** Takes the next request like {@link #next()} if one is there already; {@code null} if none. */
    public ReceivedRequest poll() {
        requireRecording();
        synchronized (requests) {
            return taken == requests.size() ? null : requests.get(taken++);
        }
    }

    /** Returns how many recorded requests {@link #next()}/{@link #poll()} have not taken yet. */
    public int pending() {
        requireRecording();
        synchronized (requests) {
            return requests.size() - taken;
        }
    }

    // ---- Lifetime ----

    /**
     * Listens (again, on the same port); does nothing if it listens already.
     *
     * @throws UncheckedIOException  if it cannot bind (another process took the port meanwhile)
     * @throws IllegalStateException if closed
     */
    public synchronized void start() {
        if (closed) {
            throw new IllegalStateException(name + " is closed");
        }
        if (server != null) {
            return;
        }
        try {
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
            HttpServer started;
            if (tls == null) {
                started = HttpServer.create(address, backlog);
            } else {
                HttpsServer https = HttpsServer.create(address, backlog);
                https.setHttpsConfigurator(new HttpsConfigurator(tls));
                started = https;
            }
            started.createContext("/", this::handle);
            started.setExecutor(executor);
            started.start();
            server = started;
            port = started.getAddress().getPort();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + name + " on port " + port, e);
        }
    }

    /** Returns whether it listens (started, not stopped). */
    public synchronized boolean isListening() {
        return server != null;
    }

    /** Stops listening at once: open connections are closed, new ones refused; {@link #start()} resumes. */
    public synchronized void stop() {
        if (server != null) {
            server.stop(0);
            server = null;
        }
    }

    /** Stops listening and its threads for good; idempotent. */
    @Override
    public synchronized void close() {
        stop();
        closed = true;
        executor.shutdownNow();
        if (delayer != null) {
            delayer.shutdownNow();
        }
    }

    // ---- Helpers for route handlers ----

    /** Returns a handler that answers {@code status} with {@code body} and the headers given as name, value, ... */
    public static Handler answer(int status, String body, String... headerNamesAndValues) {
        return exchange -> respond(exchange, status, body, headerNamesAndValues);
    }

    /** Answers {@code exchange} with {@code status}, {@code body} (none if empty) and the headers given as name, value, ... */
    public static void respond(HttpExchange exchange, int status, String body, String... headerNamesAndValues)
            throws IOException {
        if (headerNamesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("headers must be name, value pairs");
        }
        for (int i = 0; i < headerNamesAndValues.length; i += 2) {
            exchange.getResponseHeaders().add(headerNamesAndValues[i], headerNamesAndValues[i + 1]);
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    // ---- Serving ----

    private void handle(HttpExchange exchange) {
        boolean answerLater = false;
        try {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            received.incrementAndGet();
            String path = exchange.getRequestURI().getPath();
            Handler route = down ? null : route(path);
            if (route != null) {
                record(request(exchange, path, body, ReceivedRequest.ROUTED));
                route.handle(exchange);
                return;
            }
            int status = down ? 503 : statusByPath.getOrDefault(path, -1);
            ReceivedRequest request = null; // built only when someone reads it (load tests)
            Responder current = responder;
            if (status == -1 && current instanceof Fixed fixed) {
                status = fixed.status();
            } else if (status == -1) {
                request = request(exchange, path, body, ReceivedRequest.ROUTED);
                status = current.status(request);
            }
            boolean ok = status / 100 == 2;
            if (recording || (ok && onAccepted != null)) {
                request = request == null ? request(exchange, path, body, status) : request.withStatus(status);
                record(request);
                if (ok && onAccepted != null) {
                    onAccepted.accept(request);
                }
            }
            if (ok) {
                accepted.incrementAndGet();
            }
            Duration delay = latency;
            if (delay.isZero()) {
                sendStatus(exchange, status);
            } else {
                int answer = status;
                delayer().schedule(() -> sendStatus(exchange, answer), delay.toNanos(), TimeUnit.NANOSECONDS);
                answerLater = true;
            }
        } catch (IOException e) {
            // The client went away (as some tests intend); it sees its own failure.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, name + ": a handler failed; the connection is closed", e);
        } finally {
            if (!answerLater) {
                exchange.close();
            }
        }
    }

    private Handler route(String path) {
        String best = null;
        for (String prefix : routes.keySet()) {
            if (path.startsWith(prefix) && (best == null || prefix.length() > best.length())) {
                best = prefix;
            }
        }
        return best == null ? null : routes.get(best);
    }

    private static ReceivedRequest request(HttpExchange exchange, String path, byte[] body, int status) {
        Map<String, List<String>> headers = new HashMap<>();
        exchange.getRequestHeaders().forEach((header, values) ->
                headers.merge(header.toLowerCase(Locale.ROOT), List.copyOf(values), (a, b) -> {
                    List<String> both = new ArrayList<>(a);
                    both.addAll(b);
                    return List.copyOf(both);
                }));
        return new ReceivedRequest(exchange.getRequestMethod(), path, exchange.getRequestURI().getRawQuery(),
                headers, new String(body, StandardCharsets.UTF_8), status, Instant.now());
    }

    private void record(ReceivedRequest request) {
        if (recording) {
            synchronized (requests) {
                requests.add(request);
                requests.notifyAll();
            }
        }
    }

    private static void sendStatus(HttpExchange exchange, int status) {
        try (exchange) {
            exchange.sendResponseHeaders(status, -1);
        } catch (IOException e) {
            // The client gave up; it sees its own failure.
        }
    }

    private synchronized ScheduledExecutorService delayer() {
        if (delayer == null) {
            delayer = Executors.newScheduledThreadPool(2, daemonThreads(name + "-delay"));
        }
        return delayer;
    }

    private void waitForRequests(long nanos) {
        try {
            TimeUnit.NANOSECONDS.timedWait(requests, nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted while waiting for requests", e);
        }
    }

    private void requireRecording() {
        if (!recording) {
            throw new IllegalStateException(name + " does not record requests (built with recording(false))");
        }
    }

    private static String requirePath(String path) {
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("A path starts with /, got: " + path);
        }
        return path;
    }

    private static Duration requireNotNegative(Duration latency) {
        if (latency.isNegative()) {
            throw new IllegalArgumentException("latency must not be negative, got " + latency);
        }
        return latency;
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
