package org.eeoutbox.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import org.eeoutbox.testkit.Dirs;
import org.eeoutbox.testkit.HttpReceiver;
import org.eeoutbox.testkit.KafkaBroker;
import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;

/**
 * The infrastructure shared by all IT classes of one test JVM: the database selected by
 * {@value ItConfig#DB}, a Kafka broker with topic {@value ItConfig#KAFKA_TOPIC}, and an
 * {@link HttpReceiver}. Started by {@link ItSessionListener} before any test class, stopped at the
 * end of the launcher session or by a JVM shutdown hook.
 *
 * <p>The accessors are for the test JVM only: call them in {@code @RunAsClient} method bodies (and
 * {@code @Deployment} methods), never in-container, and never declare a field of these types in a
 * test class (Arquillian ships the test class into the server, where they do not exist:
 * NoClassDefFoundError). Values for in-container code travel in the test WAR ({@code TestApps}):
 * {@link #dataSourceClass()}, {@link HttpReceiver#url()}, {@link KafkaBroker#bootstrapServers()}.
 */
public final class ItEnvironment {

    private static final System.Logger LOG = System.getLogger(ItEnvironment.class.getName());

    private static TestDatabase database;
    private static String databaseName;
    private static ServerDataSource serverDataSource;
    private static Path dataSourceClass;
    private static Path dataSourceClassWithLoginFromConfig;
    private static KafkaBroker kafka;
    private static HttpReceiver receiver;
    private static Path workDir;
    private static Thread shutdownHook;

    /** The MicroProfile Config key of the user in {@link #dataSourceClassWithLoginFromConfig()}. */
    public static final String USER_KEY = "it.datasource.user";

    /** The MicroProfile Config key of the password in {@link #dataSourceClassWithLoginFromConfig()}. */
    public static final String PASSWORD_KEY = "it.datasource.password";

    /** Where {@link #dataSourceClass()} belongs below {@code WEB-INF/classes/}. */
    public static final String DATA_SOURCE_CLASS_PATH = DataSourceDefinitionClass.NAME.replace('.', '/') + ".class";

    private ItEnvironment() {
    }

    /**
     * Starts everything, creates the server's login, compiles the DataSource class and registers the
     * shutdown hook; does nothing if already started. The database and the broker start in parallel.
     *
     * @throws IllegalArgumentException if {@value ItConfig#DB} names no supported database
     * @throws IllegalStateException    if something cannot be started; what did start is stopped
     *                                  (the database when the JVM exits)
     */
    public static synchronized void start() {
        if (workDir != null) {
            return;
        }
        long startNanos = System.nanoTime();
        LOG.log(System.Logger.Level.INFO, "Starting the IT infrastructure {0} ms after the JVM started",
                ManagementFactory.getRuntimeMXBean().getUptime());
        String name = System.getProperty(ItConfig.DB, "postgresql");
        String dataSourceClassName = switch (name) {
            case "postgresql" -> "org.postgresql.ds.PGSimpleDataSource";
            case "mysql" -> "com.mysql.cj.jdbc.MysqlDataSource";
            case "mariadb" -> "org.mariadb.jdbc.MariaDbDataSource";
            default -> throw new IllegalArgumentException(ItConfig.DB + " must be postgresql, mysql or mariadb, got: "
                    + name);
        };
        shutdownHook = new Thread(ItEnvironment::stop, "it-environment-stop");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        try {
            // The testkit, zonky and the connector's deployment copies all write below java.io.tmpdir.
            Path tmp = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
            workDir = Files.createTempDirectory(tmp, "outbox-it-");
            CompletableFuture<TestDatabase> db = CompletableFuture.supplyAsync(
                    () -> switch (name) {
                        case "mysql" -> TestDatabases.mysql();
                        case "mariadb" -> TestDatabases.mariadb();
                        default -> TestDatabases.postgresql();
                    },
                    runnable -> new Thread(runnable, "it-start-" + name).start());
            receiver = HttpReceiver.builder().name("it-http-receiver").start();
            kafka = KafkaBroker.start();
            kafka.createTopic(ItConfig.KAFKA_TOPIC, 1);
            database = db.join();
            databaseName = name;
            ServerLogin login = ServerLogin.of(database);
            serverDataSource = new ServerDataSource(dataSourceClassName, ServerDataSource.serverUrl(database.jdbcUrl()),
                    login.user(), login.password());
            dataSourceClass = DataSourceDefinitionClass.compile(serverDataSource, ItConfig.DATASOURCE,
                    workDir.resolve("datasource"));
        } catch (IOException | RuntimeException e) {
            stop();
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            throw new IllegalStateException("Cannot start the integration-test infrastructure", cause);
        }
        LOG.log(System.Logger.Level.INFO, "IT infrastructure ready in {0} ms: {1}, Kafka {2}, receiver {3}",
                (System.nanoTime() - startNanos) / 1_000_000, database, kafka.bootstrapServers(), receiver.url());
    }

    /**
     * Stops the receiver and the broker, deletes the work directory and the connector's deployment
     * copies; idempotent; logs failures rather than throwing them. The database stays up until the
     * JVM exits (the testkit's own shutdown hook stops it: it has no stop API).
     */
    public static synchronized void stop() {
        long startNanos = System.nanoTime();
        if (receiver != null) {
            quietly("the HTTP receiver", receiver::close);
            receiver = null;
        }
        if (kafka != null) {
            quietly("the Kafka broker", kafka::close);
            kafka = null;
        }
        if (workDir != null) {
            Path dir = workDir;
            quietly("the work directory", () -> Dirs.deleteRecursivelyQuietly(dir));
            quietly("the connector's deployment copies", ItEnvironment::deleteDeploymentCopies);
            workDir = null;
        }
        database = null;
        databaseName = null;
        serverDataSource = null;
        dataSourceClass = null;
        dataSourceClassWithLoginFromConfig = null;
        if (shutdownHook != null && Thread.currentThread() != shutdownHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // The JVM is shutting down already.
            }
        }
        shutdownHook = null;
        LOG.log(System.Logger.Level.INFO, "IT infrastructure stopped in {0} ms",
                (System.nanoTime() - startNanos) / 1_000_000);
    }

    /** Returns the database of this run. */
    public static synchronized TestDatabase database() {
        return require(database);
    }

    /** Returns {@code postgresql}, {@code mysql} or {@code mariadb}. */
    public static synchronized String databaseName() {
        return require(databaseName);
    }

    /**
     * Returns the compiled class that defines the test application's DataSource
     * ({@value ItConfig#DATASOURCE}) for the database of this run, to add to the WAR as
     * {@code WEB-INF/classes/} + {@link #DATA_SOURCE_CLASS_PATH}.
     */
    public static synchronized Path dataSourceClass() {
        return require(dataSourceClass);
    }

    /**
     * Returns a variant of {@link #dataSourceClass()} (same class name and URL) whose user and
     * password are {@code ${MPCONFIG=it.datasource.user}} and
     * {@code ${MPCONFIG=it.datasource.password}}: the server must resolve them from the
     * application's configuration, whose right values {@link #loginAsConfig()} gives. Compiled on
     * the first call.
     *
     * @throws IllegalStateException if compiling fails
     */
    public static synchronized Path dataSourceClassWithLoginFromConfig() {
        if (dataSourceClassWithLoginFromConfig == null) {
            ServerDataSource fromConfig = require(serverDataSource);
            dataSourceClassWithLoginFromConfig = DataSourceDefinitionClass.compile(new ServerDataSource(
                    fromConfig.className(), fromConfig.url(), "${MPCONFIG=" + USER_KEY + "}",
                    "${MPCONFIG=" + PASSWORD_KEY + "}"), ItConfig.DATASOURCE, workDir.resolve("datasource-mpconfig"));
        }
        return dataSourceClassWithLoginFromConfig;
    }

    /**
     * Returns the server's database login as MicroProfile Config properties {@value #USER_KEY} and
     * {@value #PASSWORD_KEY}, the values {@link #dataSourceClassWithLoginFromConfig()} needs.
     */
    public static synchronized Map<String, String> loginAsConfig() {
        ServerDataSource login = require(serverDataSource);
        return Map.of(USER_KEY, login.user(), PASSWORD_KEY, login.password());
    }

    /** Returns the Kafka broker. */
    public static synchronized KafkaBroker kafka() {
        return require(kafka);
    }

    /** Returns the HTTP receiver. */
    public static synchronized HttpReceiver receiver() {
        return require(receiver);
    }

    private static <T> T require(T value) {
        if (value == null) {
            throw new IllegalStateException("The IT infrastructure is not running: ItSessionListener starts it"
                    + " (JUnit launcher session), and it is reachable only in the test JVM (@RunAsClient)");
        }
        return value;
    }

    /**
     * Deletes the WAR copies that the Payara Micro connector leaves in {@code java.io.tmpdir}
     * ({@code arquillian-payara-micro*}, about 15 MB per IT class and run, never deleted by it).
     * Payara is stopped by then: the connector stops it after each IT class. The WildFly and Liberty
     * connectors leave nothing there.
     */
    private static void deleteDeploymentCopies() {
        try (Stream<Path> dirs = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            dirs.filter(dir -> dir.getFileName().toString().startsWith("arquillian-payara-micro"))
                    .forEach(Dirs::deleteRecursivelyQuietly);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs one stop step; a failure is logged, not thrown, so that the other steps still run. */
    private static void quietly(String what, Runnable step) {
        try {
            step.run();
        } catch (RuntimeException | LinkageError e) {
            // LinkageError seen when the testkit jar in the local repository was reinstalled during the run.
            LOG.log(System.Logger.Level.WARNING, "Cannot stop " + what, e);
        }
    }
}
