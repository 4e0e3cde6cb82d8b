package org.eeoutbox.reliability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.eeoutbox.demo.DemoDatabase;
import org.eeoutbox.demo.PayaraMicro;
import org.eeoutbox.testkit.Dirs;
import org.eeoutbox.testkit.KafkaBroker;
import org.eeoutbox.testkit.Ports;

/**
 * What every reliability test of the JVM shares, started once: a restartable embedded PostgreSQL
 * (its {@code postgres} login carries a password, which the server's trust authentication ignores
 * but which reaches Payara, so tests can look for it in logs), the in-JVM Kafka broker, and the
 * paths of the Payara Micro jar and the example WAR. A JVM shutdown hook kills every Payara Micro
 * process a test left running and stops the database.
 *
 * <p>System properties (set by the module's failsafe configuration): {@code reliability.home},
 * the repository root; {@code reliability.work}, the work directory; {@code reliability.scale},
 * the factor applied to every scenario's message count (default 1).
 */
final class Rig {

    /** The database password of the run: it must never appear in a log or an error. */
    static final String DATABASE_PASSWORD = "db-secret-3c9d1f";

    private static Rig instance;

    final Path work;
    final double scale;
    final RestartablePostgres postgres;
    final DemoDatabase database;
    final KafkaBroker broker;
    final Path payaraJar;
    final Path war;
    private final List<PayaraMicro> payaras = new ArrayList<>(); // guarded by itself

    private Rig() throws IOException, SQLException {
        Path home = Path.of(System.getProperty("reliability.home", "..")).toAbsolutePath().normalize();
        work = Path.of(System.getProperty("reliability.work", "target/reliability")).toAbsolutePath();
        scale = Double.parseDouble(System.getProperty("reliability.scale", "1"));
        payaraJar = PayaraMicro.jar(home);
        war = PayaraMicro.exampleWar(home);
        for (Path required : List.of(payaraJar, war)) {
            if (!Files.isRegularFile(required)) {
                throw new IllegalStateException(required + " is missing: build with mvn verify -Preliability");
            }
        }
        Dirs.deleteRecursively(work);
        Files.createDirectories(work);
        Path binaries = Path.of(System.getProperty("user.home"), ".cache", "eeoutbox", "embedded-pg");
        postgres = new RestartablePostgres(work.resolve("postgres"), binaries, Ports.free());
        Runtime.getRuntime().addShutdownHook(new Thread(this::stopAll, "reliability-stop"));
        postgres.start();
        String server = "jdbc:postgresql://127.0.0.1:" + postgres.port() + "/";
        try (Connection connection = DriverManager.getConnection(server + "postgres", "postgres", "");
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE outbox");
            statement.execute("ALTER USER postgres PASSWORD '" + DATABASE_PASSWORD + "'");
        }
        database = DemoDatabase.external(server + "outbox", "postgres", DATABASE_PASSWORD);
        broker = KafkaBroker.start();
    }

    /** Returns the shared rig, starting it on the first call. */
    static synchronized Rig get() throws IOException, SQLException {
        if (instance == null) {
            instance = new Rig();
        }
        return instance;
    }

    /** Returns {@code count} times the scale, at least {@code minimum}. */
    int scaled(int count, int minimum) {
        return Math.max(minimum, (int) Math.round(count * scale));
    }

    /** Drops the example's tables: the next Payara Micro creates them again, empty. */
    void dropTables() {
        try (Connection connection = database.admin().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS outbox_attempt, outbox_pause, outbox_key_sequence, outbox, orders");
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot drop the example's tables", e);
        }
    }

    /**
     * Starts Payara Micro with the example WAR and these system properties; its files go to
     * {@code dir} (log {@code NAME.log}). The process is killed at JVM exit if still running.
     */
    PayaraMicro startPayara(Path dir, String name, Map<String, String> settings, int port)
            throws IOException {
        Files.createDirectories(dir);
        Path properties = PayaraMicro.writeSystemProperties(settings, dir.resolve(name + ".properties"),
                "reliability test " + name);
        PayaraMicro payara = PayaraMicro.start(payaraJar, war, properties, dir.resolve(name + ".log"),
                dir.resolve("tmp-" + name), PayaraMicro.Tuning.QUICK_START, port);
        synchronized (payaras) {
            payaras.add(payara);
        }
        return payara;
    }

    /** Prints a report line of the tests (the harness's output) and appends it to results.txt. */
    void report(String format, Object... args) {
        String line = "reliability: " + String.format(Locale.ROOT, format, args);
        System.out.println(line);
        try {
            Path results = work.resolve("results.txt");
            Files.writeString(results, line + System.lineSeparator(), StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            System.out.println("reliability: cannot write results.txt: " + e);
        }
    }

    private void stopAll() {
        synchronized (payaras) {
            for (PayaraMicro payara : payaras) {
                try {
                    payara.kill();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        try {
            postgres.stop();
        } catch (IOException e) {
            System.out.println("reliability: could not stop PostgreSQL: " + e);
        }
    }
}
