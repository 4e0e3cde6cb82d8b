package org.eeoutbox.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.logging.FileHandler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.eeoutbox.testkit.HttpReceiver;

/**
 * The driver behind {@code ./demo}: starts a database, a Kafka broker, a webhook receiver, a
 * Kafka receiver and Payara Micro running {@code outbox-example} ({@link DemoStack}); places orders through
 * {@code POST /orders} from several client threads while showing progress; waits for every
 * {@code order.created} message to arrive at both receivers; prints a summary whose last line is
 * {@code demo: delivered N/N http, N/N kafka, duplicates D} ({@link DemoReport}); and stops everything it started,
 * also on failure and on Ctrl-C. Exit status 0 when every message arrived, 1 otherwise, 2 for a
 * bad option, 130 when interrupted.
 *
 * <p>System properties set by {@code ./demo}: {@code demo.home}, the repository root (default
 * the working directory).
 */
public final class Demo {

    /** The webhook path of the example's {@code orders.webhook.path}; see {@link ServiceSettings#WEBHOOK_PATH}. */
    public static final String WEBHOOK_PATH = ServiceSettings.WEBHOOK_PATH;
    /** How long {@code --chaos} keeps the webhook receiver stopped. */
    static final Duration CHAOS_OUTAGE = Duration.ofSeconds(5);

    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(30);
    private static final long TICK_MILLIS = 200;
    /** Loggers whose level the demo sets: held, since java.util.logging forgets unreferenced ones. */
    private static final List<Logger> QUIETED = new ArrayList<>();

    private final DemoOptions options;
    private final Path home;
    private final Path work;
    private final Console console;
    private final long startNanos = System.nanoTime();

    private final Tally http = new Tally();
    private final Tally kafka = new Tally();
    private final Tally feed = new Tally();
    private final DemoStack stack;
    private final DemoReport report;
    private volatile boolean stopping;

    private OrderClients clients;
    private FeedFollowers followers;
    private volatile long chaosDownNanos;

    private Demo(DemoOptions options, Path home, Console console) {
        this.options = options;
        this.home = home;
        this.work = home.resolve("outbox-demo/target/demo");
        this.console = console;
        this.stack = new DemoStack(options, work, console);
        this.report = new DemoReport(console, options, work, http, kafka, feed);
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

    /**
     * The service's configuration for a run; see {@link ServiceSettings#of}, which this
     * delegates to (kept for {@code outbox-reliability}).
     */
    public static Map<String, String> serviceSettings(DemoDatabase database, String webhooksUrl,
            String kafkaBootstrap, String topic) {
        return ServiceSettings.of(database, webhooksUrl, kafkaBootstrap, topic);
    }

    /** Runs the demo; returns the exit status. */
    private int run() {
        Thread hook = new Thread(this::onInterrupt, "demo-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        int status;
        try {
            Files.createDirectories(work);
            logToFile();
            DemoReport.Result result = execute();
            closeFollowers();
            stack.close();
            if (stopping) {
                return 130;
            }
            report.printSummary(result, System.nanoTime() - startNanos);
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

    private DemoReport.Result execute() throws DemoException, IOException, InterruptedException {
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
        stack.startInfrastructure(http, kafka);
        stack.startPayara(payaraJar, war, version);
        PayaraMicro payara = stack.payara();
        DemoDatabase database = stack.database();
        if (options.feedClients() > 0) {
            URI channel = URI.create(payara.baseUrl() + "/feeds/" + DemoStack.FEED_CHANNEL);
            followers = FeedFollowers.connect(channel, options.feedClients(), feed);
            console.line("  feed       " + options.feedClients() + " clients follow " + channel
                    + " (Server-Sent Events): each order is published there too");
        }

        console.line("Placing orders. Each POST /orders saves the order and publishes order.created to the webhook");
        console.line("and to Kafka in one transaction. Progress: orders placed | messages delivered per transport");
        clients = OrderClients.paced(payara.baseUrl(), options.orders(), options.rate(), options.warmUp());
        long loadStart = System.nanoTime();
        clients.start(options.clients());
        Thread chaos = options.chaos() ? startChaos(stack.receiver()) : null;
        DemoReport.Progress progress = report.progress(loadStart, clients, stack.receiver());
        while (!clients.done()) {
            show(progress, false);
            TimeUnit.MILLISECONDS.sleep(TICK_MILLIS);
        }
        clients.join();
        long loadEnd = System.nanoTime();

        // Every order placed: wait for its two messages, then for the outbox to settle (retries of
        // messages a receiver got but could not acknowledge arrive as duplicates).
        Set<String> placed = clients.placed();
        long deadline = loadEnd + options.timeout().toNanos();
        while (!allDelivered(placed) && System.nanoTime() < deadline && payara.isAlive()) {
            show(progress, false);
            TimeUnit.MILLISECONDS.sleep(TICK_MILLIS);
        }
        long deliveredEnd = System.nanoTime();
        show(progress, true);
        console.endProgress();
        if (chaos != null) {
            chaos.join();
        }
        FeedFollowers.Outcome feedOutcome = followers == null ? null : followers.outcome(loadStart);
        long settleDeadline = Math.min(deadline, System.nanoTime() + SETTLE_TIMEOUT.toNanos());
        while (database.outboxByStatus().getOrDefault("PENDING", 0L) > 0 && System.nanoTime() < settleDeadline
                && payara.isAlive()) {
            TimeUnit.MILLISECONDS.sleep(TICK_MILLIS);
        }
        TimeUnit.MILLISECONDS.sleep(300);
        Map<String, Double> counters = payara.outboxCounters();
        Map<String, Long> outbox = database.outboxByStatus();
        return new DemoReport.Result(placed.size(), clients.failed(), clients.firstFailure(), http.deliveredOf(placed),
                kafka.deliveredOf(placed), counters, outbox, stack.kafkaReceiver().failure(), !payara.isAlive(),
                clients.measuredFrom(), chaosDownNanos, stack.infrastructureNanos(), stack.payaraNanos(),
                loadEnd - loadStart, deliveredEnd - loadEnd, feedOutcome);
    }

    private void show(DemoReport.Progress progress, boolean force) {
        if (!stopping) {
            progress.show(force);
        }
    }

    private boolean allDelivered(Set<String> placed) {
        return http.deliveredOf(placed) == placed.size() && kafka.deliveredOf(placed) == placed.size()
                && (followers == null || followers.allReceived(placed.size()));
    }

    /** Stops the webhook receiver once a quarter of the orders are placed, and starts it again. */
    private Thread startChaos(HttpReceiver receiver) {
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
        closeFollowers();
        if (stack.payara() != null) {
            console.line("demo: Payara's log: " + relative(work.resolve("payara.log")));
        }
        console.line("demo: the database's, Kafka's and the receivers' log: "
                + relative(work.resolve("infrastructure.log")));
        stack.close();
        String firstLine = message.lines().findFirst().orElse(message).replaceFirst(":$", "");
        console.line("demo: failed: " + firstLine);
        return 1;
    }

    private void closeFollowers() {
        FeedFollowers open = followers;
        if (open != null) {
            open.close();
        }
    }

    private void onInterrupt() {
        if (!stack.isRunning() || stopping) {
            return;
        }
        stopping = true;
        console.endProgress();
        console.line("demo: interrupted; stopping everything it started");
        closeFollowers();
        stack.close();
        console.line("demo: stopped");
    }

    /** {@code path} relative to the working directory when below it, for messages. */
    static String relative(Path path) {
        Path cwd = Path.of("").toAbsolutePath();
        return path.startsWith(cwd) ? cwd.relativize(path).toString() : path.toString();
    }

    private static String resource(String name) {
        try (InputStream in = Demo.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
