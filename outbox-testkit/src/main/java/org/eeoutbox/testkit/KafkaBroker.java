package org.eeoutbox.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.utils.Time;
import org.opentest4j.TestAbortedException;

/**
 * A real Apache Kafka broker for tests: a single-node KRaft cluster (one process acting as broker
 * and controller) running inside the test JVM, or an external broker given by configuration.
 *
 * <p><b>Embedded.</b> {@link #start()} picks two free loopback ports (broker and controller, from
 * {@code ServerSocket(0)}), formats a fresh log directory under {@code java.io.tmpdir} and starts
 * the broker; it returns once an {@link Admin} client has created a probe topic, so the broker
 * accepts topics, produce and fetch requests. Settings: replication factor 1 and a single
 * partition for the offsets and transaction-state topics, {@code auto.create.topics.enable=false}
 * (a test creates its topics with {@link #createTopic}), no initial consumer-group rebalance
 * delay. The broker logs through SLF4J (to {@code java.util.logging} with {@code slf4j-jdk14}).
 * Starting takes about 2 to 7 seconds and 300 MB of heap on two shared cores.
 *
 * <p><b>External.</b> When the system property {@value #BOOTSTRAP_PROPERTY} or else the environment
 * variable {@value #BOOTSTRAP_ENV} is set (blank means unset), {@link #start()} starts nothing and
 * {@link #bootstrapServers()} returns that value; {@link #createTopic} still works (through
 * {@code Admin}), but {@link #stop()} and {@link #restart()} throw {@link TestAbortedException}, so
 * a test that needs to stop the broker is reported as skipped rather than failed. Tests should use
 * unique topic names so that they can run repeatedly against a long-lived broker.
 *
 * <p><b>Lifecycle.</b> {@link #stop()} shuts the broker down and waits for it; {@link #restart()}
 * starts it again on the same ports and log directory, so clients holding the old bootstrap
 * address reconnect and topics and records survive. {@link #close()} stops the broker and deletes
 * its log directory; a JVM shutdown hook does the same if a test forgets. All methods are
 * thread-safe.
 */
public final class KafkaBroker implements AutoCloseable {

    /** System property naming an external broker's bootstrap servers; replaces the embedded one. */
    public static final String BOOTSTRAP_PROPERTY = "outbox.test.kafka.bootstrap";

    /** Environment variable read when {@value #BOOTSTRAP_PROPERTY} is not set. */
    public static final String BOOTSTRAP_ENV = "OUTBOX_TEST_KAFKA_BOOTSTRAP";

    private static final System.Logger LOG = System.getLogger(KafkaBroker.class.getName());

    private static final String PROBE_TOPIC = "outbox-testkit-probe";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

    private final String bootstrapServers;
    /** The broker's configuration, or {@code null} for an external broker. */
    private final Map<String, String> config;
    /** The log directory, or {@code null} for an external broker. */
    private final Path logDir;
    private final Thread shutdownHook;

    /** The running server, {@code null} while stopped; guarded by {@code this}. */
    private KafkaRaftServer server;
    /** Whether {@link #close()} has run; guarded by {@code this}. */
    private boolean closed;

    private KafkaBroker(String bootstrapServers, Map<String, String> config, Path logDir) {
        this.bootstrapServers = bootstrapServers;
        this.config = config;
        this.logDir = logDir;
        this.shutdownHook = new Thread(this::closeQuietly, "outbox-testkit-stop-kafka");
    }

    /**
     * Starts an embedded single-node KRaft broker, or returns a handle on the configured external
     * broker (see the class documentation).
     *
     * @return a running broker, ready to create topics and accept records
     * @throws IllegalStateException if the broker cannot be started or does not become ready
     *                               within 60 seconds
     */
    public static KafkaBroker start() {
        Optional<String> external = externalBootstrap();
        if (external.isPresent()) {
            LOG.log(System.Logger.Level.INFO, "Using the external Kafka broker {0}", external.get());
            return new KafkaBroker(external.get(), null, null);
        }
        long startNanos = System.nanoTime();
        Path logDir = null;
        try {
            Path tmp = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
            logDir = Files.createTempDirectory(tmp, "kafka-broker-");
            int[] ports = Ports.free(2);
            Map<String, String> config = config(ports[0], ports[1], logDir);
            format(config, logDir);
            KafkaBroker broker = new KafkaBroker("127.0.0.1:" + ports[0], config, logDir);
            Runtime.getRuntime().addShutdownHook(broker.shutdownHook);
            try {
                broker.startServer();
            } catch (RuntimeException e) {
                broker.close();
                throw e;
            }
            LOG.log(System.Logger.Level.INFO, "Kafka broker ready in {0} ms on {1} (log dir {2})",
                    (System.nanoTime() - startNanos) / 1_000_000, broker.bootstrapServers, logDir);
            return broker;
        } catch (IOException | UncheckedIOException e) {
            if (logDir != null) {
                Dirs.deleteRecursivelyQuietly(logDir);
            }
            throw new IllegalStateException("Cannot start the embedded Kafka broker", e);
        }
    }

    /** Returns the {@code bootstrap.servers} value of this broker, such as {@code 127.0.0.1:40123}. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** Returns whether this is an external broker, which {@link #stop()} cannot stop. */
    public boolean isExternal() {
        return config == null;
    }

    /**
     * Creates a topic with replication factor 1 and waits until the controller has created it.
     *
     * @param name       the topic; must not exist yet
     * @param partitions the number of partitions, {@code >= 1}
     * @throws IllegalArgumentException if {@code partitions < 1}
     * @throws IllegalStateException    if the topic exists already or cannot be created in 30 seconds
     */
    public void createTopic(String name, int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, got: " + partitions);
        }
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all()
                    .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            awaitLeaders(admin, name, System.nanoTime() + ADMIN_TIMEOUT.toNanos());
        } catch (ExecutionException e) {
            throw new IllegalStateException("Cannot create topic " + name + " on " + bootstrapServers, e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("Topic " + name + " not created within " + ADMIN_TIMEOUT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating topic " + name, e);
        }
    }

    /**
     * Shuts the embedded broker down and waits until it has stopped; does nothing if it is stopped
     * already. Its ports and log directory are kept for {@link #restart()}.
     *
     * @throws TestAbortedException on an external broker, which cannot be stopped
     */
    public synchronized void stop() {
        requireEmbedded("stop");
        stopServer();
    }

    /**
     * Stops the embedded broker if it runs, then starts it again on the same ports and log
     * directory, and waits until it is ready. Clients configured with {@link #bootstrapServers()}
     * reconnect by themselves.
     *
     * @throws TestAbortedException  on an external broker, which cannot be restarted
     * @throws IllegalStateException if the broker is closed or does not come back within 60 seconds
     */
    public synchronized void restart() {
        requireEmbedded("restart");
        if (closed) {
            throw new IllegalStateException("The Kafka broker on " + bootstrapServers + " is closed");
        }
        stopServer();
        long startNanos = System.nanoTime();
        startServer();
        LOG.log(System.Logger.Level.INFO, "Kafka broker restarted in {0} ms on {1}",
                (System.nanoTime() - startNanos) / 1_000_000, bootstrapServers);
    }

    /**
     * Stops the embedded broker and deletes its log directory; idempotent. On an external broker
     * it does nothing.
     */
    @Override
    public synchronized void close() {
        if (isExternal() || closed) {
            return;
        }
        closed = true;
        try {
            stopServer();
        } finally {
            Dirs.deleteRecursivelyQuietly(logDir);
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException | SecurityException e) {
                // The JVM is shutting down: the hook is running or about to run, which is fine.
            }
        }
    }

    @Override
    public String toString() {
        return "KafkaBroker[" + bootstrapServers + (isExternal() ? ", external]" : "]");
    }

    private void closeQuietly() {
        try {
            close();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "Cannot stop the Kafka broker on " + bootstrapServers, e);
        }
    }

    private void requireEmbedded(String operation) {
        if (isExternal()) {
            throw new TestAbortedException(operation + "() is not supported on an external Kafka broker ("
                    + bootstrapServers + ", set by " + BOOTSTRAP_PROPERTY + " or " + BOOTSTRAP_ENV + ")");
        }
    }

    /** Starts the server from the formatted log directory and waits until it serves requests. */
    private synchronized void startServer() {
        Properties properties = new Properties();
        properties.putAll(config);
        KafkaRaftServer started = new KafkaRaftServer(new KafkaConfig(properties, false), Time.SYSTEM);
        server = started;
        try {
            started.startup();
            awaitReady();
        } catch (RuntimeException e) {
            stopServer();
            throw e;
        }
    }

    private synchronized void stopServer() {
        KafkaRaftServer running = server;
        if (running == null) {
            return;
        }
        server = null;
        long startNanos = System.nanoTime();
        running.shutdown();
        running.awaitShutdown();
        LOG.log(System.Logger.Level.DEBUG, "Kafka broker on {0} stopped in {1} ms",
                bootstrapServers, (System.nanoTime() - startNanos) / 1_000_000);
    }

    /**
     * Waits until the broker serves admin requests and has a leader for a probe topic: creating
     * the topic on the first start, finding it again after a restart.
     */
    private void awaitReady() {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        Exception last = null;
        try (Admin admin = admin()) {
            while (System.nanoTime() < deadline) {
                try {
                    try {
                        admin.createTopics(List.of(new NewTopic(PROBE_TOPIC, 1, (short) 1))).all()
                                .get(remainingMillis(deadline), TimeUnit.MILLISECONDS);
                    } catch (ExecutionException e) {
                        if (!(e.getCause() instanceof TopicExistsException)) {
                            throw e;
                        }
                    }
                    awaitLeaders(admin, PROBE_TOPIC, deadline);
                    return;
                } catch (ExecutionException | TimeoutException | RuntimeException e) {
                    last = e;
                    Thread.sleep(100);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the Kafka broker", e);
        }
        throw new IllegalStateException("The Kafka broker on " + bootstrapServers + " is not ready after "
                + READY_TIMEOUT, last);
    }

    /** Waits until every partition of {@code topic} has a leader, as the broker's metadata sees it. */
    private static void awaitLeaders(Admin admin, String topic, long deadline)
            throws ExecutionException, TimeoutException, InterruptedException {
        while (true) {
            try {
                TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                        .get(remainingMillis(deadline), TimeUnit.MILLISECONDS).get(topic);
                if (description.partitions().stream().map(TopicPartitionInfo::leader)
                        .allMatch(leader -> leader != null && !leader.isEmpty())) {
                    return;
                }
            } catch (ExecutionException e) {
                // UnknownTopicOrPartition until the broker has caught up with the controller.
                if (System.nanoTime() >= deadline) {
                    throw e;
                }
            }
            if (System.nanoTime() >= deadline) {
                throw new TimeoutException("No leader for every partition of " + topic);
            }
            Thread.sleep(50);
        }
    }

    private Admin admin() {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) ADMIN_TIMEOUT.toMillis()));
    }

    private static long remainingMillis(long deadlineNanos) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
    }

    private static Map<String, String> config(int brokerPort, int controllerPort, Path logDir) {
        return Map.ofEntries(
                Map.entry("process.roles", "broker,controller"),
                Map.entry("node.id", "1"),
                Map.entry("controller.quorum.voters", "1@127.0.0.1:" + controllerPort),
                Map.entry("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:"
                        + controllerPort),
                Map.entry("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort),
                Map.entry("controller.listener.names", "CONTROLLER"),
                Map.entry("inter.broker.listener.name", "PLAINTEXT"),
                Map.entry("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"),
                Map.entry("log.dirs", logDir.toString()),
                Map.entry("auto.create.topics.enable", "false"),
                Map.entry("num.partitions", "1"),
                Map.entry("offsets.topic.replication.factor", "1"),
                Map.entry("offsets.topic.num.partitions", "1"),
                Map.entry("transaction.state.log.replication.factor", "1"),
                Map.entry("transaction.state.log.min.isr", "1"),
                Map.entry("transaction.state.log.num.partitions", "1"),
                Map.entry("share.coordinator.state.topic.replication.factor", "1"),
                Map.entry("share.coordinator.state.topic.min.isr", "1"),
                Map.entry("group.initial.rebalance.delay.ms", "0"),
                Map.entry("num.network.threads", "2"),
                Map.entry("num.io.threads", "2"),
                Map.entry("num.recovery.threads.per.data.dir", "1"));
    }

    /** Formats the log directory for a new cluster, as {@code kafka-storage.sh format} does. */
    private static void format(Map<String, String> config, Path logDir) throws IOException {
        Path configFile = logDir.resolveSibling(logDir.getFileName() + ".properties");
        Properties properties = new Properties();
        properties.putAll(config);
        try (OutputStream out = Files.newOutputStream(configFile)) {
            properties.store(out, "EE Outbox test broker");
        }
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try (PrintStream printer = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            int status = StorageTool.execute(new String[] {"format", "-t", Uuid.randomUuid().toString(),
                    "-c", configFile.toString(), "--ignore-formatted"}, printer);
            if (status != 0) {
                throw new IllegalStateException("Formatting the Kafka log directory " + logDir + " failed with "
                        + status + ": " + output.toString(StandardCharsets.UTF_8));
            }
        } finally {
            Files.deleteIfExists(configFile);
        }
    }

    private static Optional<String> externalBootstrap() {
        String value = System.getProperty(BOOTSTRAP_PROPERTY);
        if (value == null || value.isBlank()) {
            value = System.getenv(BOOTSTRAP_ENV);
        }
        return Optional.ofNullable(value).map(String::strip).filter(v -> !v.isEmpty());
    }
}
