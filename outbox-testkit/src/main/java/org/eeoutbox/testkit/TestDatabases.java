package org.eeoutbox.testkit;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * The shared test databases of the JVM.
 *
 * <p>Each database is started on the first call of its method, by whichever thread comes first;
 * concurrent and later calls return the same instance (a failed start is not retried: later calls
 * fail with the original cause). A JVM shutdown hook closes the pool and stops the server.
 *
 * <p>An external server replaces the embedded one when its URL is configured; then nothing is
 * started. The settings, read as system property first, then environment variable (blank means
 * unset):
 * <ul>
 *   <li>{@code outbox.test.postgresql.url} / {@code OUTBOX_TEST_POSTGRESQL_URL}, with
 *       {@code outbox.test.postgresql.user} / {@code OUTBOX_TEST_POSTGRESQL_USER} (default
 *       {@code postgres}) and {@code outbox.test.postgresql.password} /
 *       {@code OUTBOX_TEST_POSTGRESQL_PASSWORD} (default empty);</li>
 *   <li>{@code outbox.test.mysql.url} / {@code OUTBOX_TEST_MYSQL_URL}, with {@code .user} /
 *       {@code _USER} (default {@code root}) and {@code .password} / {@code _PASSWORD} (default
 *       empty);</li>
 *   <li>{@code outbox.test.mariadb.url} / {@code OUTBOX_TEST_MARIADB_URL}, with {@code .user} /
 *       {@code _USER} (default {@code root}) and {@code .password} / {@code _PASSWORD} (default
 *       empty); the URL is MariaDB Connector/J's ({@code jdbc:mariadb://…}).</li>
 * </ul>
 *
 * <p>Embedded servers run in UTC and trade durability for speed (PostgreSQL {@code fsync=off};
 * MySQL and MariaDB without binary log or doublewrite buffer). They keep their data under
 * {@code java.io.tmpdir} and delete it on exit; their binaries are cached under
 * {@code ~/.cache/eeoutbox}. A JVM killed with SIGKILL leaves the server processes running.
 */
public final class TestDatabases {

    private static final System.Logger LOG = System.getLogger(TestDatabases.class.getName());

    private static final String POSTGRESQL = "postgresql";
    private static final String MYSQL = "mysql";
    private static final String MARIADB = "mariadb";

    private static final Once POSTGRESQL_DATABASE = new Once(POSTGRESQL, TestDatabases::startPostgresql);
    private static final Once MYSQL_DATABASE = new Once(MYSQL, () -> startLocal(MYSQL, new MySqlDistribution()));
    private static final Once MARIADB_DATABASE =
            new Once(MARIADB, () -> startLocal(MARIADB, new MariaDbDistribution()));

    private TestDatabases() {
    }

    /**
     * Returns the PostgreSQL database: the configured external one, or else an embedded
     * PostgreSQL 17 (zonky) with database {@code outbox}, user {@code postgres}, no password.
     *
     * @throws IllegalStateException if it cannot be started or reached
     */
    public static TestDatabase postgresql() {
        return POSTGRESQL_DATABASE.get();
    }

    /**
     * Returns the MySQL database: the configured external one, or else an embedded MySQL 8.0.15
     * (Linux x86-64 only) with database {@code outbox}, user {@code root}, no password.
     *
     * @throws IllegalStateException if it cannot be started or reached
     */
    public static TestDatabase mysql() {
        return MYSQL_DATABASE.get();
    }

    /**
     * Returns the MariaDB database: the configured external one, or else an embedded MariaDB
     * 11.4.5 (Linux x86-64 only) with database {@code outbox}, user {@code root}, no password,
     * reached through MariaDB Connector/J.
     *
     * @throws IllegalStateException if it cannot be started or reached
     */
    public static TestDatabase mariadb() {
        return MARIADB_DATABASE.get();
    }

    private static PooledTestDatabase startPostgresql() throws IOException, SQLException {
        Optional<String> url = setting(POSTGRESQL, "url");
        if (url.isPresent()) {
            return external(POSTGRESQL, url.get(), "postgres");
        }
        // zonky creates its data directory under java.io.tmpdir, which builds point into target/.
        Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
        EmbeddedPostgres server = EmbeddedPostgres.builder()
                .setOverrideWorkingDirectory(Path.of(System.getProperty("user.home"), ".cache", "eeoutbox",
                        "embedded-pg").toFile())
                .setRegisterShutdownHook(false)
                .setServerConfig("fsync", "off")
                .start();
        try {
            try (Connection connection = server.getPostgresDatabase().getConnection();
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE outbox");
            }
            return pooled(POSTGRESQL, "jdbc:postgresql://127.0.0.1:" + server.getPort() + "/outbox",
                    "postgres", "", server);
        } catch (SQLException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    private static PooledTestDatabase startLocal(String name, ServerDistribution distribution)
            throws IOException, InterruptedException {
        Optional<String> url = setting(name, "url");
        if (url.isPresent()) {
            return external(name, url.get(), "root");
        }
        LocalServer server = LocalServer.start(distribution);
        try {
            return pooled(name, server.jdbcUrl(), "root", "", server);
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    private static PooledTestDatabase external(String name, String url, String defaultUser) {
        LOG.log(System.Logger.Level.INFO, "Using the external {0} database {1}", name, url);
        return pooled(name, url, setting(name, "user").orElse(defaultUser), setting(name, "password").orElse(""),
                () -> { });
    }

    private static PooledTestDatabase pooled(String name, String url, String user, String password,
            AutoCloseable server) {
        PooledTestDatabase database = new PooledTestDatabase(name, url, user, password, server);
        Runtime.getRuntime().addShutdownHook(new Thread(database::close, "outbox-testkit-stop-" + name));
        return database;
    }

    /** Reads {@code outbox.test.<database>.<key>}, else {@code OUTBOX_TEST_<DATABASE>_<KEY>}. */
    private static Optional<String> setting(String database, String key) {
        String property = "outbox.test." + database + "." + key;
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            value = System.getenv(property.replace('.', '_').toUpperCase(Locale.ROOT));
        }
        return Optional.ofNullable(value).filter(v -> !v.isBlank());
    }

    /** Starts a database at most once; remembers the instance or the failure. */
    private static final class Once {

        private final String name;
        private final Callable<PooledTestDatabase> starter;
        private TestDatabase database;
        private Exception failure;

        Once(String name, Callable<PooledTestDatabase> starter) {
            this.name = name;
            this.starter = starter;
        }

        synchronized TestDatabase get() {
            if (database == null && failure == null) {
                long startNanos = System.nanoTime();
                try {
                    database = starter.call();
                    long millis = (System.nanoTime() - startNanos) / 1_000_000;
                    LOG.log(System.Logger.Level.INFO, () -> name + " ready in " + millis + " ms: " + database);
                } catch (Exception e) {
                    if (e instanceof InterruptedException) {
                        Thread.currentThread().interrupt();
                    }
                    failure = e;
                }
            }
            if (failure != null) {
                throw new IllegalStateException("The " + name + " test database is not available", failure);
            }
            return database;
        }
    }
}
