package org.eeoutbox.demo;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.eeoutbox.testkit.Dirs;
import org.eeoutbox.testkit.HttpReceiver;
import org.eeoutbox.testkit.KafkaBroker;

/**
 * The demo's infrastructure: a database, a webhook receiver, a Kafka broker with a topic and a
 * receiver ({@link #startInfrastructure}), then Payara Micro running {@code outbox-example}
 * ({@link #startPayara}). Each part is registered as soon as it runs, and {@link #close()} stops
 * them newest first. Progress lines go to the console.
 *
 * <p>The start methods are called by one thread, in that order, and throw {@link DemoException}
 * (or an unchecked exception from a part) when a part does not start; what started until then
 * stays registered. {@link #close()} may be called from any thread, also while a start method
 * runs (the Ctrl-C hook) and more than once; it never throws, it reports a part that cannot be
 * stopped on the console.
 */
final class DemoStack implements AutoCloseable {

    /**
     * The order feed's channel ({@code orders.feed.channel}) with {@code --feed-clients}: the
     * clients read it from its first event, so a run on an external database that already holds
     * a demo's feed entries must not reuse its name.
     */
    static final String FEED_CHANNEL = "orders-" + Long.toString(System.currentTimeMillis(), 36);

    /** The Kafka topic of the example's {@code orders.topic}, on the embedded broker. */
    static final String TOPIC = "orders";

    private static final Duration PAYARA_START_TIMEOUT = Duration.ofMinutes(4);

    private final DemoOptions options;
    private final Path work;
    private final Console console;
    /** What was started, stopped in reverse order; guarded by itself. */
    private final Deque<Step> running = new ArrayDeque<>();

    private volatile DemoDatabase database;
    private volatile HttpReceiver receiver;
    private volatile KafkaBroker broker;
    private volatile KafkaReceiver kafkaReceiver;
    private volatile PayaraMicro payara;
    private volatile String topic;
    private long infrastructureNanos;
    private long payaraNanos;

    DemoStack(DemoOptions options, Path work, Console console) {
        this.options = options;
        this.work = work;
        this.console = console;
    }

    /**
     * Starts the database (in the background), the webhook receiver, the broker, the topic and
     * the Kafka receiver, and waits for the database.
     *
     * @throws DemoException if the database does not start
     */
    void startInfrastructure(Tally http, Tally kafka) throws DemoException {
        long start = System.nanoTime();
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

        receiver = Webhooks.receiver(ServiceSettings.WEBHOOK_PATH, http);
        started("the webhook receiver", receiver::close);
        broker = KafkaBroker.start();
        started("the Kafka broker", broker::close);
        // An external broker (OUTBOX_TEST_KAFKA_BOOTSTRAP) may hold the topics of earlier runs.
        topic = broker.isExternal() ? "eeoutbox-demo-orders-" + System.currentTimeMillis() : TOPIC;
        broker.createTopic(topic, 3);
        kafkaReceiver = new KafkaReceiver(broker.bootstrapServers(), topic, kafka);
        started("the Kafka receiver", kafkaReceiver::close);
        long kafkaReady = System.nanoTime();
        try {
            database = databaseStart.join();
        } catch (CompletionException e) {
            throw new DemoException("the database did not start: " + rootMessage(e.getCause())
                    + " (details: " + Demo.relative(work.resolve("infrastructure.log")) + ")", e.getCause());
        }
        infrastructureNanos = System.nanoTime() - start;
        console.line("  database   " + database.description() + " (" + Console.seconds(databaseReady[0] - start)
                + ")");
        console.line("  kafka      " + (broker.isExternal() ? "external broker at " : "in-JVM KRaft broker at ")
                + broker.bootstrapServers() + ", topic " + topic
                + " with 3 partitions, and a consumer (" + Console.seconds(kafkaReady - start) + ")");
        console.line("  webhooks   receiver at " + receiver.url(ServiceSettings.WEBHOOK_PATH));
    }

    /**
     * Starts Payara Micro with the service's settings for this infrastructure, and waits until
     * the order service is ready.
     *
     * @throws DemoException if Payara exits or is not ready within four minutes
     * @throws IOException   if the settings or Payara's files cannot be written
     */
    void startPayara(Path payaraJar, Path war, String version) throws DemoException, IOException, InterruptedException {
        Map<String, String> settings = ServiceSettings.of(database, receiver.url(), broker.bootstrapServers(), topic);
        if (options.feedClients() > 0) {
            settings.putAll(ServiceSettings.feed(FEED_CHANNEL));
        }
        Path systemProperties = PayaraMicro.writeSystemProperties(settings,
                work.resolve("payara-system.properties"),
                "./demo: Payara Micro --systemproperties (holds a database password)");
        Path payaraLog = work.resolve("payara.log");
        Path payaraTmp = work.resolve("payara-tmp");
        Dirs.deleteRecursivelyQuietly(payaraTmp);
        console.line("  payara     starting Payara Micro " + version + " with outbox-example.war (log: "
                + Demo.relative(payaraLog) + ")");
        long start = System.nanoTime();
        payara = PayaraMicro.start(payaraJar, war, systemProperties, payaraLog, payaraTmp,
                PayaraMicro.Tuning.THROUGHPUT);
        started("Payara Micro", () -> {
            payara.close();
            Dirs.deleteRecursivelyQuietly(payaraTmp);
        });
        payara.awaitReady(PAYARA_START_TIMEOUT);
        payaraNanos = System.nanoTime() - start;
        console.line("  payara     order service ready at " + payara.baseUrl() + "/orders ("
                + Console.seconds(payaraNanos) + ")");
    }

    DemoDatabase database() {
        return database;
    }

    /** The webhook receiver, or null before {@link #startInfrastructure}. */
    HttpReceiver receiver() {
        return receiver;
    }

    KafkaReceiver kafkaReceiver() {
        return kafkaReceiver;
    }

    /** Payara Micro, or null before {@link #startPayara}. */
    PayaraMicro payara() {
        return payara;
    }

    /** How long {@link #startInfrastructure} took. */
    long infrastructureNanos() {
        return infrastructureNanos;
    }

    /** How long {@link #startPayara} took, from Payara's start to the service's readiness. */
    long payaraNanos() {
        return payaraNanos;
    }

    /** Whether anything started is not stopped yet. */
    boolean isRunning() {
        synchronized (running) {
            return !running.isEmpty();
        }
    }

    /** Stops everything started, newest first; idempotent; failures are reported, not thrown. */
    @Override
    public void close() {
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

    private void started(String what, Stopper stopper) {
        synchronized (running) {
            running.push(new Step(what, stopper));
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return e == root ? String.valueOf(e.getMessage()) : e.getMessage() + ": " + root;
    }

    /** Stops one thing the demo started. */
    @FunctionalInterface
    private interface Stopper {
        void stop() throws Exception;
    }

    private record Step(String what, Stopper stopper) {
    }
}
