package org.eeoutbox.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.eeoutbox.OutboxHeaders;
import org.eeoutbox.http.HttpDelivererSettings;
import org.eeoutbox.http.HttpClientKind;
import org.eeoutbox.http.HttpDelivery;
import org.eeoutbox.http.HttpMessageDeliverer;
import org.eeoutbox.http.HttpServiceOptions;
import org.eeoutbox.http.HttpServiceResolver;
import org.eeoutbox.http.WebhookSigner;
import org.eeoutbox.spi.CloudEvent;
import org.eeoutbox.testkit.HttpReceiver;

/**
 * HTTP drain rate: the engine, on each client of {@code --http-client}, draining PostgreSQL rows to
 * the testkit's {@link HttpReceiver} that answers 200 after 0 or 20 ms, against the JDK
 * {@link HttpClient} alone (no database) sending the
 * same requests (method, body, headers) in batches of the same size, with the same workers and the
 * same cap on requests in flight.
 *
 * <p>The deliverer's {@code maxInFlight} is {@code --http-max-in-flight}, by default batch size ×
 * the most workers (400), so each worker has its whole batch in flight, as the bare client does; the
 * library's default of 32 would cap a 20 ms receiver at 1,600 requests/s. The engine claims in
 * lease mode, webhooks' default, which keeps up to two batches per worker in flight (within the
 * cap); {@code --lease} adds lease against lock mode.
 *
 * <p>Then, at 0 ms and one worker, the engine whose requests are signed (Standard Webhooks) and
 * sent as binary-mode CloudEvents against the same engine with plain requests: what the extra
 * headers and the HMAC cost. Both sides claim in lock mode, as every recorded row of that
 * comparison did: the ratio is about the requests, and one mode on both sides keeps the rows
 * comparable across sessions.
 */
final class HttpBench {

    private static final int BATCH_SIZE = 100;
    private static final String SERVICE = "receiver";
    private static final String PATH = "/webhooks/orders";
    /** 32 bytes, as `openssl rand -base64 32` makes them. */
    private static final String SIGNING_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwMfKQ9r8GKYo=";

    private HttpBench() {
    }

    static void run(Runner runner, BenchDatabase pg, Bench.Options options, ExecutorService executor)
            throws Exception {
        ExecutorService clientThreads = Executors.newCachedThreadPool(Bench.daemonThreads("bench-http-client"));
        // The JDK server keeps at most 200 idle connections and closes those idle for 30 s;
        // with 400 requests in flight the client would reuse connections the server is closing
        // ("Connection reset"). Read once, when the server's configuration class loads.
        System.setProperty("sun.net.httpserver.maxIdleConnections", "1000");
        System.setProperty("sun.net.httpserver.idleInterval", "600");
        try (HttpReceiver receiver = HttpReceiver.builder().name(CpuMeter.RECEIVER_THREADS).backlog(1024).recording(false)
                     .start()) {
            for (HttpClientKind client : options.httpClients()) {
                HttpServiceOptions signedCloudEvents = new HttpServiceOptions(
                        WebhookSigner.of(List.of(SIGNING_SECRET)), CloudEvent.Mode.BINARY, CloudEvent.DEFAULT_SOURCE);
                try (HttpMessageDeliverer deliverer = deliverer(client, receiver, HttpServiceOptions.PLAIN,
                             clientThreads, options.httpMaxInFlight());
                     HttpMessageDeliverer dressed = deliverer(client, receiver, signedCloudEvents, clientThreads,
                             options.httpMaxInFlight())) {
                    run(runner, pg, options, executor, receiver, client, deliverer, dressed, clientThreads);
                }
            }
        } finally {
            clientThreads.shutdownNow();
        }
    }

    /** A deliverer of {@link #SERVICE}, the receiver, whose requests {@code serviceOptions} dress. */
    private static HttpMessageDeliverer deliverer(HttpClientKind client, HttpReceiver receiver,
                                                  HttpServiceOptions serviceOptions, ExecutorService clientThreads,
                                                  int maxInFlight) {
        HttpServiceResolver resolver = HttpServiceResolver.of(Map.of(SERVICE, receiver.uri()),
                Map.of(SERVICE, serviceOptions));
        return new HttpMessageDeliverer(resolver, client, clientThreads, Bench.daemonThreads("bench-http-io"),
                Clock.systemUTC(), HttpDelivererSettings.DEFAULT.withMaxInFlight(maxInFlight), null);
    }

    /** One client's comparisons: against the bare JDK loop at each latency, then signed against plain. */
    private static void run(Runner runner, BenchDatabase pg, Bench.Options options, ExecutorService executor,
                            HttpReceiver receiver, HttpClientKind client, HttpMessageDeliverer deliverer,
                            HttpMessageDeliverer dressed, ExecutorService clientThreads) throws Exception {
        int rows = options.httpRows();
        String engineName = "engine(" + client.propertyValue() + ")";
        BareClient bare = new BareClient(URI.create(receiver.url(PATH)), clientThreads, options.httpMaxInFlight());
        String metadata = HttpDelivery.to(SERVICE).path(PATH).build().metadataJson();
        Runner.Task seed = pg.seeding(rows, HttpDelivery.DELIVERY_TYPE, metadata);
        for (int latency : options.httpLatencies()) {
            for (int workers : options.httpWorkers()) {
                receiver.latency(Duration.ofMillis(latency));
                long before = receiver.received();
                // Webhooks' default claim mode, as a user's engine runs them.
                Engine engine = new Engine(pg, deliverer, BATCH_SIZE, workers, executor, true);
                Runner.Target target = workers == 1 ? target(client, latency) : null;
                runner.compare("http", pg.label() + " latency=" + latency + "ms workers=" + workers,
                        engineName, Runner.Side.of(seed, () -> engine.drain(rows)),
                        "HttpClient", Runner.Side.of(() -> { }, () -> bare.send(rows, workers, executor)),
                        target, true);
                pg.requireDrained("The HTTP engine");
                requireWholeRounds(receiver.received() - before, rows, 2L * (options.rounds() + Runner.WARM_UP_ROUNDS));
                if (options.lease()) {
                    compareLeaseWithLock(runner, pg, deliverer, seed, rows, latency, workers, executor);
                }
            }
        }
        if (options.httpLatencies().contains(0)) {
            receiver.latency(Duration.ZERO);
            long before = receiver.received();
            Engine plain = new Engine(pg, deliverer, BATCH_SIZE, 1, executor);
            Engine signed = new Engine(pg, dressed, BATCH_SIZE, 1, executor);
            runner.compare("http", pg.label() + " latency=0ms workers=1 " + client.propertyValue()
                            + " signed+cloudevents",
                    "signed", Runner.Side.of(seed, () -> signed.drain(rows)),
                    "plain", Runner.Side.of(seed, () -> plain.drain(rows)), new Runner.Target(0.95, 0), true);
            pg.requireDrained("The HTTP engine");
            requireWholeRounds(receiver.received() - before, rows, 2L * (options.rounds() + Runner.WARM_UP_ROUNDS));
            if (options.diagnose()) {
                diagnoseDressing(runner, pg, executor, receiver, client, clientThreads, options, plain, seed);
            }
        }
    }

    /**
     * Where the cost of signed CloudEvents goes: signing alone and binary CloudEvents alone against
     * plain requests, and plain requests carrying the same headers' bytes as the delivery's own
     * (names and values of the same lengths, no HMAC, no attributes computed): a gap the padded
     * side shares is the bytes' cost (client, receiver and network), not the computation's.
     */
    private static void diagnoseDressing(Runner runner, BenchDatabase pg, ExecutorService executor,
                                         HttpReceiver receiver, HttpClientKind client, ExecutorService clientThreads,
                                         Bench.Options options, Engine plain, Runner.Task seed) throws Exception {
        int rows = options.httpRows();
        String config = pg.label() + " latency=0ms workers=1 " + client.propertyValue();
        Map<String, HttpServiceOptions> variants = new LinkedHashMap<>();
        variants.put("signed", new HttpServiceOptions(WebhookSigner.of(List.of(SIGNING_SECRET)), null, null));
        variants.put("cloudevents", new HttpServiceOptions(null, CloudEvent.Mode.BINARY, CloudEvent.DEFAULT_SOURCE));
        for (Map.Entry<String, HttpServiceOptions> variant : variants.entrySet()) {
            try (HttpMessageDeliverer deliverer = deliverer(client, receiver, variant.getValue(), clientThreads,
                    options.httpMaxInFlight())) {
                Engine dressed = new Engine(pg, deliverer, BATCH_SIZE, 1, executor);
                runner.compare("http", config + " " + variant.getKey(), variant.getKey(),
                        Runner.Side.of(seed, () -> dressed.drain(rows)), "plain",
                        Runner.Side.of(seed, () -> plain.drain(rows)), null, true);
                pg.requireDrained("The HTTP engine");
            }
        }
        // The headers signed binary CloudEvents add (ce-specversion to ce-time, then webhook-id,
        // -timestamp and -signature), as the lengths of their names and values.
        HttpDelivery.Builder padded = HttpDelivery.to(SERVICE).path(PATH);
        int[][] lengths = {{14, 3}, {5, 36}, {9, 12}, {7, 11}, {7, 27}, {10, 36}, {17, 10}, {17, 47}};
        for (int i = 0; i < lengths.length; i++) {
            padded.header("x" + i + "p".repeat(lengths[i][0] - 2), "v".repeat(lengths[i][1]));
        }
        runner.compare("http", config + " same header bytes", "padded", Runner.Side.of(
                pg.seeding(rows, HttpDelivery.DELIVERY_TYPE, padded.build().metadataJson()),
                () -> plain.drain(rows)), "plain", Runner.Side.of(seed, () -> plain.drain(rows)), null, true);
        pg.requireDrained("The HTTP engine");
    }

    /**
     * Issue 16: the engine in lease mode against lock mode, on the same deliverer, and the
     * connections each holds. The cap on requests in flight stays one batch per worker: a cap of
     * two (which lease mode's pipelining could use at four workers) overran the JDK
     * {@code HttpServer} receiver, whose failed requests left rows pending (2026-12-04).
     */
    private static void compareLeaseWithLock(Runner runner, BenchDatabase pg, HttpMessageDeliverer deliverer,
                                             Runner.Task seed, int rows, int latency, int workers,
                                             ExecutorService executor) throws Exception {
        PoolUsage leaseUsage = new PoolUsage(pg.pool());
        PoolUsage lockUsage = new PoolUsage(pg.pool());
        String config = pg.label() + " http latency=" + latency + "ms workers=" + workers;
        Engine leased = new Engine(pg, deliverer, BATCH_SIZE, workers, executor, true);
        Engine locked = new Engine(pg, deliverer, BATCH_SIZE, workers, executor);
        runner.compare("lease", config, "lease", Runner.Side.of(seed, leaseUsage.during(() -> leased.drain(rows))),
                "lock", Runner.Side.of(seed, lockUsage.during(() -> locked.drain(rows))), null, true);
        pg.requireDrained("The HTTP engine in lease mode");
        runner.note("lease", config, "connections in use: lease " + leaseUsage + "; lock " + lockUsage);
    }

    /**
     * Issue 21 for a faster client: 2.5 times the bare JDK loop at 0 ms, 2 times at 20 ms; the JDK
     * client's own engine: 0.8 of it and 4,000 (0 ms) or 3,000 (20 ms) messages/s.
     */
    private static Runner.Target target(HttpClientKind client, int latency) {
        if (client == HttpClientKind.JDK) {
            return new Runner.Target(0.80, latency == 0 ? 4000 : 3000);
        }
        return new Runner.Target(latency == 0 ? 2.5 : 2.0, 0);
    }

    /** Checks that the receiver got every request of every round, a harness error otherwise. */
    private static void requireWholeRounds(long received, int rows, long rounds) {
        if (received % rows != 0 || received < rounds * rows) {
            throw new IllegalStateException("The receiver got " + received + " requests, not a whole number of rounds"
                    + " of " + rows);
        }
    }

    /** The limit: the JDK client alone, batches of {@link #BATCH_SIZE} sent at once within the cap. */
    private static final class BareClient {

        private final URI target;
        private final HttpClient client;
        private final Semaphore permits;

        BareClient(URI target, ExecutorService clientThreads, int maxInFlight) {
            this.permits = new Semaphore(maxInFlight, true);
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
}
