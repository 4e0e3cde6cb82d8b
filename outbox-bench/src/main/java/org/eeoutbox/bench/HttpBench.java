package org.eeoutbox.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.eeoutbox.OutboxHeaders;
import org.eeoutbox.http.HttpDelivererSettings;
import org.eeoutbox.http.HttpDelivery;
import org.eeoutbox.http.HttpMessageDeliverer;
import org.eeoutbox.http.HttpServiceResolver;

/**
 * HTTP drain rate: the engine draining PostgreSQL rows to a local JDK {@link HttpServer} that
 * answers 200 after 0 or 20 ms, against the JDK {@link HttpClient} alone (no database) sending the
 * same requests (method, body, headers) in batches of the same size, with the same workers and the
 * same cap on requests in flight.
 *
 * <p>The deliverer's {@code maxInFlight} is batch size × the most workers (400), so each worker
 * has its whole batch in flight, as the bare client does; the library's default of 32 would cap a
 * 20 ms receiver at 1,600 requests/s.
 */
final class HttpBench {

    private static final int BATCH_SIZE = 100;
    private static final int MAX_IN_FLIGHT = 400;
    private static final String SERVICE = "receiver";
    private static final String PATH = "/webhooks/orders";

    private HttpBench() {
    }

    static void run(Runner runner, BenchDatabase pg, Bench.Options options, ExecutorService executor)
            throws Exception {
        int rows = options.httpRows();
        ExecutorService clientThreads = Executors.newCachedThreadPool(Bench.daemonThreads("bench-http-client"));
        try (Receiver receiver = Receiver.start();
             HttpMessageDeliverer deliverer = new HttpMessageDeliverer(
                     HttpServiceResolver.of(Map.of(SERVICE, receiver.baseUrl())), clientThreads, Clock.systemUTC(),
                     HttpDelivererSettings.DEFAULT.withMaxInFlight(MAX_IN_FLIGHT))) {
            BareClient bare = new BareClient(URI.create(receiver.baseUrl() + PATH), clientThreads);
            String metadata = HttpDelivery.to(SERVICE).path(PATH).build().metadataJson();
            Runner.Task seed = () -> {
                pg.truncate();
                pg.seedPending(rows, HttpDelivery.DELIVERY_TYPE, metadata);
                pg.analyze();
            };
            for (int latency : options.httpLatencies()) {
                for (int workers : options.httpWorkers()) {
                    receiver.latencyMillis = latency;
                    long before = receiver.received.get();
                    Engine engine = new Engine(pg, deliverer, BATCH_SIZE, workers, executor);
                    Runner.Target target = workers == 1 ? new Runner.Target(0.80, latency == 0 ? 4000 : 3000) : null;
                    runner.compare("http", pg.label() + " latency=" + latency + "ms workers=" + workers,
                            "engine", Runner.Side.of(seed, () -> engine.drain(rows)),
                            "HttpClient", Runner.Side.of(() -> { }, () -> bare.send(rows, workers, executor)),
                            target, true);
                    pg.requireDrained("The HTTP engine");
                    long received = receiver.received.get() - before;
                    if (received % rows != 0 || received < 2L * (options.rounds() + Runner.WARM_UP_ROUNDS) * rows) {
                        throw new IllegalStateException("The receiver got " + received + " requests, not a whole"
                                + " number of rounds of " + rows);
                    }
                }
            }
        } finally {
            clientThreads.shutdownNow();
        }
    }

    /** The limit: the JDK client alone, batches of {@link #BATCH_SIZE} sent at once within the cap. */
    private static final class BareClient {

        private final URI target;
        private final HttpClient client;
        private final Semaphore permits = new Semaphore(MAX_IN_FLIGHT, true);

        BareClient(URI target, ExecutorService clientThreads) {
            this.target = target;
            this.client = HttpClient.newBuilder()
                    .executor(clientThreads)
                    .version(HttpClient.Version.HTTP_1_1)
                    .followRedirects(HttpClient.Redirect.NEVER)
                    .connectTimeout(HttpDelivererSettings.DEFAULT.connectTimeout())
                    .build();
        }

        long send(int total, int workers, ExecutorService executor) throws Exception {
            AtomicInteger remaining = new AtomicInteger(total);
            return Runner.inParallel(workers, executor, () -> {
                long sent = 0;
                int batch;
                while ((batch = Math.min(BATCH_SIZE, remaining.getAndAdd(-BATCH_SIZE))) > 0) {
                    List<CompletableFuture<HttpResponse<Void>>> responses = new ArrayList<>(batch);
                    for (int i = 0; i < batch; i++) {
                        HttpRequest request = HttpRequest.newBuilder(target)
                                .timeout(HttpDelivererSettings.DEFAULT.requestTimeout())
                                .POST(HttpRequest.BodyPublishers.ofString(BenchDatabase.PAYLOAD, StandardCharsets.UTF_8))
                                .header("Content-Type", HttpDelivery.DEFAULT_CONTENT_TYPE)
                                .header(OutboxHeaders.OUTBOX_ID, UUID.randomUUID().toString())
                                .build();
                        permits.acquire();
                        responses.add(client.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                                .whenComplete((response, error) -> permits.release()));
                    }
                    for (CompletableFuture<HttpResponse<Void>> response : responses) {
                        int status = response.get().statusCode();
                        if (status / 100 != 2) {
                            throw new IllegalStateException("The receiver answered " + status);
                        }
                    }
                    sent += batch;
                }
                return sent;
            });
        }
    }

    /** A JDK HttpServer answering 200 with no body, after a configurable delay. */
    private static final class Receiver implements AutoCloseable {

        final AtomicLong received = new AtomicLong();
        volatile int latencyMillis;
        private final HttpServer server;
        private final ExecutorService handlers;
        private final ScheduledExecutorService delayer;

        private Receiver(HttpServer server, ExecutorService handlers, ScheduledExecutorService delayer) {
            this.server = server;
            this.handlers = handlers;
            this.delayer = delayer;
        }

        static Receiver start() throws IOException {
            // The JDK server keeps at most 200 idle connections and closes those idle for 30 s;
            // with 400 requests in flight the client would reuse connections the server is closing
            // ("Connection reset"). Read once, when the server's configuration class loads.
            System.setProperty("sun.net.httpserver.maxIdleConnections", "1000");
            System.setProperty("sun.net.httpserver.idleInterval", "600");
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
            ExecutorService handlers = Executors.newFixedThreadPool(4, Bench.daemonThreads("bench-receiver"));
            ScheduledExecutorService delayer = Executors.newScheduledThreadPool(2,
                    Bench.daemonThreads("bench-receiver-delay"));
            Receiver receiver = new Receiver(server, handlers, delayer);
            server.setExecutor(handlers);
            server.createContext("/", receiver::handle);
            server.start();
            return receiver;
        }

        URI baseUrl() {
            return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        }

        private void handle(HttpExchange exchange) throws IOException {
            try (InputStream body = exchange.getRequestBody()) {
                body.readAllBytes();
            }
            received.incrementAndGet();
            int latency = latencyMillis;
            if (latency == 0) {
                respond(exchange);
            } else {
                // Answered later from another thread: no handler thread sleeps.
                delayer.schedule(() -> respond(exchange), latency, TimeUnit.MILLISECONDS);
            }
        }

        private static void respond(HttpExchange exchange) {
            try {
                exchange.sendResponseHeaders(200, -1);
            } catch (IOException e) {
                // The client gave up; it counts the failure.
            } finally {
                exchange.close();
            }
        }

        @Override
        public void close() {
            server.stop(0);
            handlers.shutdownNow();
            delayer.shutdownNow();
        }
    }
}
