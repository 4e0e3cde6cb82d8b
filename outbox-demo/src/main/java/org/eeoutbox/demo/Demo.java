package org.eeoutbox.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.FileHandler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.eeoutbox.testkit.KafkaBroker;

/**
 * The driver behind {@code ./demo}: starts a database, a Kafka broker, a webhook receiver, a
 * Kafka receiver and Payara Micro running {@code outbox-example}; places orders through
 * {@code POST /orders} from several client threads while showing progress; waits for every
 * {@code order.created} message to arrive at both receivers; prints a summary whose last line is
 * {@code demo: delivered N/N http, N/N kafka, duplicates D}; and stops everything it started,
 * also on failure and on Ctrl-C. Exit status 0 when every message arrived, 1 otherwise, 2 for a
 * bad option.
 *
 * <p>System properties set by {@code ./demo}: {@code demo.home}, the repository root (default
 * the working directory).
 */
public final class Demo {

    /** The Kafka topic of the example's {@code orders.topic}, on the embedded broker. */
    static final String TOPIC = "orders";
    /** The webhook path of the example's {@code orders.webhook.path}. */
    public static final String WEBHOOK_PATH = "/hooks/orders";
    /** How long {@code --chaos} keeps the webhook receiver stopped. */
    static final Duration CHAOS_OUTAGE = Duration.ofSeconds(5);

    private static final Duration PAYARA_START_TIMEOUT = Duration.ofMinutes(4);
    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(30);
    private static final long TICK_MILLIS = 200;
    /** Loggers whose level the demo sets: held, since java.util.logging forgets unreferenced ones. */
    private static final List<Logger> QUIETED = new ArrayList<>();

    private final DemoOptions options;
    private final Path home;
    private final Path work;
    private final Console console;
    private final long startNanos = System.nanoTime();

    /** What was started, stopped in reverse order; guarded by itself. */
    private final Deque<Step> running = new ArrayDeque<>();
    private final Tally http = new Tally();
    private final Tally kafka = new Tally();
    private volatile boolean stopping;

    private String topic;
    private PayaraMicro payara;
    private WebhookReceiver receiver;
    private DemoDatabase database;
    private OrderClients clients;
    private volatile long chaosDownNanos;

    private Demo(DemoOptions options, Path home, Console console) {
        this.options = options;
        this.home = home;
        this.work = home.resolve("outbox-demo/target/demo");
        this.console = console;
    }

    public static void main(String[] args) {
        DemoOptions options;
        try {
            options = DemoOptions.parse(args, System.getenv());
        } catch (IllegalArgumentException e) {
            System.err.println("demo: " + e.getMessage() + " (./demo --help lists the options)");
            System.exit(2);
            return;
        }
        if (options.help()) {
            System.out.print(resource("usage.txt"));
            return;
        }
        Path home = Path.of(System.getProperty("demo.home", "")).toAbsolutePath().normalize();
        Demo demo = new Demo(options, home, new Console(System.out, System.console() != null));
        System.exit(demo.run());
    }

    /** Runs the demo; returns the exit status. */
    private int run() {
        Thread hook = new Thread(this::onInterrupt, "demo-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        int status;
        try {
            Files.createDirectories(work);
            logToFile();
            Result result = execute();
            stopAll();
            if (stopping) {
                return 130;
            }
            printSummary(result);
            status = result.complete() ? 0 : 1;
        } catch (DemoException | IOException | RuntimeException e) {
            status = fail(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            status = fail(new DemoException("interrupted"));
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // Shutting down already (Ctrl-C): the hook stops everything.
        }
        return status;
    }

    private Result execute() throws DemoException, IOException, InterruptedException {
        Path war = PayaraMicro.exampleWar(home);
        Path payaraJar = PayaraMicro.jar(home);
        String version = PayaraMicro.version();
        for (Path required : List.of(war, payaraJar)) {
            if (!Files.isRegularFile(required)) {
                throw new DemoException(relative(required) + " is missing: run ./demo, which builds it");
            }
        }
        console.line("EE Outbox demo: " + Console.count(options.orders()) + " orders from " + options.clients()
                + " client threads" + (options.rate() > 0 ? " at " + Console.count(options.rate()) + "/s" : "")
                + (options.warmUp() > 0 ? " (the first " + Console.count(options.warmUp()) + " a warm-up)" : "")
                + ", database " + options.databaseKind()
                + (options.externalDatabase() ? " (external)" : " (embedded)")
                + (options.chaos() ? ", chaos: the webhook receiver stops for " + CHAOS_OUTAGE.toSeconds() + " s" : ""));

        // The database starts in the background while the broker starts here.
        long infraStart = System.nanoTime();
        CompletableFuture<DemoDatabase> databaseStart = new CompletableFuture<>();
        long[] databaseReady = new long[1];
        Thread databaseThread = new Thread(() -> {
            try {
                DemoDatabase opened = DemoDatabase.open(options);
                databaseReady[0] = System.nanoTime();
                databaseStart.complete(opened);
            } catch (Throwable e) {
                databaseStart.completeExceptionally(e);
            }
        }, "demo-database-start");
        databaseThread.setDaemon(true);
        databaseThread.start();

        receiver = new WebhookReceiver(WEBHOOK_PATH, http);
        started("the webhook receiver", receiver::close);
        KafkaBroker broker = KafkaBroker.start();
        started("the Kafka broker", broker::close);
        // An external broker (OUTBOX_TEST_KAFKA_BOOTSTRAP) may hold the topics of earlier runs.
        topic = broker.isExternal() ? "eeoutbox-demo-orders-" + System.currentTimeMillis() : TOPIC;
        broker.createTopic(topic, 3);
        KafkaReceiver kafkaReceiver = new KafkaReceiver(broker.bootstrapServers(), topic, kafka);
        started("the Kafka receiver", kafkaReceiver::close);
        long kafkaReady = System.nanoTime();
        try {
            database = databaseStart.join();
        } catch (CompletionException e) {
            throw new DemoException("the database did not start: " + rootMessage(e.getCause())
                    + " (details: " + relative(work.resolve("infrastructure.log")) + ")", e.getCause());
        }
        long infraReady = System.nanoTime();
        console.line("  database   " + database.description() + " (" + Console.seconds(databaseReady[0] - infraStart)
                + ")");
        console.line("  kafka      " + (broker.isExternal() ? "external broker at " : "in-JVM KRaft broker at ")
                + broker.bootstrapServers() + ", topic " + topic
                + " with 3 partitions, and a consumer (" + Console.seconds(kafkaReady - infraStart) + ")");
        console.line("  webhooks   receiver at " + receiver.url());

        Path systemProperties = PayaraMicro.writeSystemProperties(
                serviceSettings(database, receiver.baseUrl(), broker.bootstrapServers(), topic),
                work.resolve("payara-system.properties"),
                "./demo: Payara Micro --systemproperties (holds a database password)");
        Path payaraLog = work.resolve("payara.log");
        Path payaraTmp = work.resolve("payara-tmp");
        deleteRecursively(payaraTmp);
        console.line("  payara     starting Payara Micro " + version + " with outbox-example.war (log: "
                + relative(payaraLog) + ")");
        long payaraStart = System.nanoTime();
        payara = PayaraMicro.start(payaraJar, war, systemProperties, payaraLog, payaraTmp);
        started("Payara Micro", () -> {
            payara.close();
            deleteRecursively(payaraTmp);
        });
        payara.awaitReady(PAYARA_START_TIMEOUT);
        long payaraReady = System.nanoTime();
        console.line("  payara     order service ready at " + payara.baseUrl() + "/orders ("
                + Console.seconds(payaraReady - payaraStart) + ")");

        console.line("Placing orders. Each POST /orders saves the order and publishes order.created to the webhook");
        console.line("and to Kafka in one transaction. Progress: orders placed | messages delivered per transport");
        clients = OrderClients.paced(payara.baseUrl(), options.orders(), options.rate(), options.warmUp());
        long loadStart = System.nanoTime();
        clients.start(options.clients());
        Thread chaos = options.chaos() ? startChaos() : null;
        Progress progress = new Progress(loadStart);
        while (!clients.done()) {
            progress.show(false);
            TimeUnit.MILLISECONDS.sleep(TICK_MILLIS);
        }
        clients.join();
        long loadEnd = System.nanoTime();

        // Every order placed: wait for its two messages, then for the outbox to settle (retries of
        // messages a receiver got but could not acknowledge arrive as duplicates).
        Set<String> placed = clients.placed();
        long deadline = loadEnd + options.timeout().toNanos();
        while (!allDelivered(placed) && System.nanoTime() < deadline && payara.isAlive()) {
            progress.show(false);
            TimeUnit.MILLISECONDS.sleep(TICK_MILLIS);
        }
        long deliveredEnd = System.nanoTime();
        progress.show(true);
        console.endProgress();
        if (chaos != null) {
            chaos.join();
        }
        long settleDeadline = Math.min(deadline, System.nanoTime() + SETTLE_TIMEOUT.toNanos());
        while (database.outboxByStatus().getOrDefault("PENDING", 0L) > 0 && System.nanoTime() < settleDeadline
                && payara.isAlive()) {
            TimeUnit.MILLISECONDS.sleep(TICK_MILLIS);
        }
        TimeUnit.MILLISECONDS.sleep(300);
        Map<String, Double> counters = payara.outboxCounters();
        Map<String, Long> outbox = database.outboxByStatus();
        return new Result(placed.size(), clients.failed(), clients.firstFailure(), http.deliveredOf(placed),
                kafka.deliveredOf(placed), counters, outbox, kafkaReceiver.failure(), !payara.isAlive(),
                infraReady - infraStart, payaraReady - payaraStart, loadEnd - loadStart, deliveredEnd - loadEnd);
    }

    private boolean allDelivered(Set<String> placed) {
        return http.deliveredOf(placed) == placed.size() && kafka.deliveredOf(placed) == placed.size();
    }

    /** Stops the webhook receiver once a quarter of the orders are placed, and starts it again. */
    private Thread startChaos() {
        Thread chaos = new Thread(() -> {
            try {
                int trigger = Math.max(1, options.orders() / 4);
                while (clients.placed().size() < trigger && !clients.done()) {
                    TimeUnit.MILLISECONDS.sleep(20);
                }
                receiver.stop();
                long down = System.nanoTime();
                console.line("  chaos: webhook receiver STOPPED after " + Console.count(clients.placed().size())
                        + " orders; webhook deliveries fail and are retried with backoff");
                TimeUnit.NANOSECONDS.sleep(CHAOS_OUTAGE.toNanos());
                receiver.start();
                chaosDownNanos = System.nanoTime() - down;
                console.line("  chaos: webhook receiver back after " + Console.seconds(chaosDownNanos)
                        + "; the retries deliver what failed");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "demo-chaos");
        chaos.setDaemon(true);
        chaos.start();
        return chaos;
    }

    /** The progress line: orders placed, messages delivered per transport, rates. */
    private final class Progress {

        private final long start;
        private final long[] sampleNanos = new long[6];
        private final long[] samplePlaced = new long[6];
        private final long[] sampleDelivered = new long[6];
        private int samples;

        Progress(long start) {
            this.start = start;
        }

        void show(boolean force) {
            if (stopping) {
                return;
            }
            long now = System.nanoTime();
            long placed = clients.placed().size() + clients.failed();
            long delivered = http.orders() + kafka.orders();
            int slot = samples % sampleNanos.length;
            int oldest = samples < sampleNanos.length ? 0 : (samples + 1) % sampleNanos.length;
            sampleNanos[slot] = now;
            samplePlaced[slot] = placed;
            sampleDelivered[slot] = delivered;
            samples++;
            double window = (now - sampleNanos[oldest]) / 1e9;
            long placedRate = window > 0 ? Math.round((placed - samplePlaced[oldest]) / window) : 0;
            long deliveredRate = window > 0 ? Math.round((delivered - sampleDelivered[oldest]) / window) : 0;
            String down = receiver != null && !receiver.isListening() ? " DOWN" : "";
            // At most about 80 columns: a wrapped line cannot be redrawn in place.
            console.progress(String.format(Locale.ROOT, "  placed %s/%s (%s/s) | http %s%s, kafka %s (%s/s) | %ds",
                    Console.count(placed), Console.count(options.orders()), Console.count(placedRate),
                    Console.count(http.orders()), down, Console.count(kafka.orders()), Console.count(deliveredRate),
                    (now - start) / 1_000_000_000L), force);
        }
    }

    private void printSummary(Result r) {
        int n = options.orders();
        console.line("Summary");
        console.line("  orders placed       " + Console.count(r.placed()) + " of " + Console.count(n)
                + (r.failedRequests() > 0 ? " (" + Console.count(r.failedRequests()) + " requests failed, first: "
                        + r.firstFailure() + ")" : ""));
        console.line("  messages published  " + Console.count(2L * r.placed()) + " order.created: "
                + Console.count(r.placed()) + " to the webhook, " + Console.count(r.placed()) + " to Kafka");
        Instant measuredFrom = clients.measuredFrom();
        console.line(deliveryLine("delivered over HTTP ", http, r.httpDelivered(), n, measuredFrom));
        console.line(deliveryLine("delivered to Kafka  ", kafka, r.kafkaDelivered(), n, measuredFrom));
        if (options.warmUp() > 0) {
            console.line("  latency             of the " + Console.count(n - options.warmUp())
                    + " orders after the warm-up: from the order's creation in its transaction to arrival");
        }
        if (options.chaos()) {
            console.line("  chaos               webhook receiver down for " + Console.seconds(chaosDownNanos));
        }
        console.line("  outbox metrics      " + (r.counters().isEmpty() ? "not readable"
                : "delivered " + counter(r, "outbox_delivered") + ", retries " + counter(r, "outbox_retries")
                        + ", failed " + counter(r, "outbox_failed") + " (MicroProfile Metrics outbox.*)"));
        console.line("  outbox table        " + (r.outbox().isEmpty() ? "empty"
                : r.outbox().entrySet().stream().map(e -> Console.count(e.getValue()) + " " + e.getKey())
                        .collect(Collectors.joining(", "))));
        console.line(String.format(Locale.ROOT,
                "  elapsed             %s in all: infrastructure %s, Payara %s, placing orders %s (%s/s),"
                        + " last delivery %s later",
                Console.seconds(System.nanoTime() - startNanos), Console.seconds(r.infrastructureNanos()),
                Console.seconds(r.payaraNanos()), Console.seconds(r.loadNanos()),
                Console.count(Math.round(r.placed() / Math.max(r.loadNanos() / 1e9, 1e-3))),
                Console.seconds(r.deliveryTailNanos())));
        if (!r.complete()) {
            if (r.payaraDied()) {
                console.line("  Payara Micro exited during the run: see " + relative(work.resolve("payara.log")));
            }
            if (r.kafkaFailure() != null) {
                console.line("  the Kafka receiver failed: " + r.kafkaFailure());
            }
            long malformed = http.malformed() + kafka.malformed();
            if (malformed > 0) {
                console.line("  " + malformed + " messages arrived without x-outbox-id or with an unreadable payload");
            }
            console.line("  NOT everything was delivered within " + options.timeout().toSeconds() + " s: see the"
                    + " outbox table (status, last_error) and " + relative(work.resolve("payara.log")));
        }
        console.line(String.format(Locale.ROOT, "demo: delivered %d/%d http, %d/%d kafka, duplicates %d",
                r.httpDelivered(), n, r.kafkaDelivered(), n, http.duplicates() + kafka.duplicates()));
    }

    private static String counter(Result r, String name) {
        Double value = r.counters().get(name);
        return value == null ? "?" : Console.count(Math.round(value));
    }

    private static String deliveryLine(String label, Tally tally, int delivered, int expected, Instant measuredFrom) {
        double[] latency = tally.latencyMillis(measuredFrom, 50, 95, 99);
        String latencies = latency.length == 0 ? "no latency (nothing arrived)"
                : String.format(Locale.ROOT, "latency p50 %s, p95 %s, p99 %s", millis(latency[0]), millis(latency[1]),
                        millis(latency[2]));
        long other = tally.orders() - delivered;
        return "  " + label + Console.count(delivered) + "/" + Console.count(expected) + ", duplicates "
                + Console.count(tally.duplicates()) + ", " + latencies
                + (other > 0 ? " (" + Console.count(other) + " messages of other orders)" : "");
    }

    private static String millis(double value) {
        return value >= 100 ? String.format(Locale.ROOT, "%,.0f ms", value) : String.format(Locale.ROOT, "%.1f ms", value);
    }

    /**
     * The service's configuration for a run, as Payara Micro system properties
     * ({@code --systemproperties}): they override the WAR's {@code microprofile-config.properties},
     * and {@code @DataSourceDefinition} sees them. Returns a modifiable map.
     *
     * @param webhooksUrl the base URL of the logical HTTP service {@code webhooks}
     */
    public static Map<String, String> serviceSettings(DemoDatabase database, String webhooksUrl,
            String kafkaBootstrap, String topic) {
        Map<String, String> settings = new TreeMap<>();
        settings.put("orders.db.datasource", database.dataSourceClass());
        settings.put("orders.db.url", database.payaraUrl());
        settings.put("orders.db.user", database.payaraUser());
        settings.put("orders.db.password", database.payaraPassword());
        settings.put("outbox.http.service.webhooks.url", webhooksUrl);
        settings.put("outbox.kafka.bootstrap.servers", kafkaBootstrap);
        settings.put("orders.webhook.path", WEBHOOK_PATH);
        settings.put("orders.topic", topic);
        // A short backoff, so that --chaos shows the recovery within seconds.
        settings.put("outbox.processor.initial-backoff", "1s");
        settings.put("outbox.processor.max-backoff", "5s");
        // Four workers: the demo places orders as fast as the service takes them; one worker (the
        // default) falls behind on two shared cores, and the latency grows with the backlog.
        settings.put("outbox.processor.concurrency", "4");
        return settings;
    }

    /** Sends java.util.logging (and so SLF4J: Kafka, the database) to infrastructure.log. */
    private void logToFile() throws IOException {
        LogManager.getLogManager().reset();
        Logger root = Logger.getLogger("");
        FileHandler handler = new FileHandler(work.resolve("infrastructure.log").toString(), false);
        handler.setFormatter(new SimpleFormatter());
        root.addHandler(handler);
        root.setLevel(Level.INFO);
        for (String chatty : List.of("kafka", "org.apache.kafka", "state.change.logger")) {
            Logger logger = Logger.getLogger(chatty);
            logger.setLevel(Level.WARNING);
            QUIETED.add(logger);
        }
    }

    private void started(String what, Stopper stopper) {
        synchronized (running) {
            running.push(new Step(what, stopper));
        }
    }

    /** Stops everything started, newest first; idempotent; failures are reported, not thrown. */
    private void stopAll() {
        while (true) {
            Step step;
            synchronized (running) {
                step = running.poll();
            }
            if (step == null) {
                return;
            }
            try {
                step.stopper().stop();
            } catch (Exception e) {
                console.line("demo: could not stop " + step.what() + ": " + e);
            }
        }
    }

    private int fail(Exception e) {
        if (stopping) {
            return 130; // Ctrl-C: the shutdown hook reports and stops
        }
        console.endProgress();
        String message = e instanceof DemoException ? e.getMessage() : e.toString();
        if (!(e instanceof DemoException)) {
            Logger.getLogger(Demo.class.getName()).log(Level.SEVERE, "demo failed", e);
        }
        console.line("demo: FAILED: " + message);
        if (payara != null) {
            console.line("demo: Payara's log: " + relative(work.resolve("payara.log")));
        }
        console.line("demo: the database's, Kafka's and the receivers' log: "
                + relative(work.resolve("infrastructure.log")));
        stopAll();
        String firstLine = message.lines().findFirst().orElse(message).replaceFirst(":$", "");
        console.line("demo: failed: " + firstLine);
        return 1;
    }

    private void onInterrupt() {
        synchronized (running) {
            if (running.isEmpty() || stopping) {
                return;
            }
            stopping = true;
        }
        console.endProgress();
        console.line("demo: interrupted; stopping everything it started");
        stopAll();
        console.line("demo: stopped");
    }

    private String relative(Path path) {
        Path cwd = Path.of("").toAbsolutePath();
        return path.startsWith(cwd) ? cwd.relativize(path).toString() : path.toString();
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return e == root ? String.valueOf(e.getMessage()) : e.getMessage() + ": " + root;
    }

    private static String resource(String name) {
        try (InputStream in = Demo.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // Best effort: it is below target/.
        }
    }

    /** Stops one thing the demo started. */
    @FunctionalInterface
    private interface Stopper {
        void stop() throws Exception;
    }

    private record Step(String what, Stopper stopper) {
    }

    private record Result(int placed, int failedRequests, String firstFailure, int httpDelivered, int kafkaDelivered,
            Map<String, Double> counters, Map<String, Long> outbox, Throwable kafkaFailure, boolean payaraDied,
            long infrastructureNanos, long payaraNanos, long loadNanos, long deliveryTailNanos) {

        boolean complete() {
            return failedRequests == 0 && httpDelivered == placed && kafkaDelivered == placed && kafkaFailure == null;
        }
    }
}
