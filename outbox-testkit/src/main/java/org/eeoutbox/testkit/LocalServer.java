package org.eeoutbox.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A private MySQL-family server process (MySQL 8 or MariaDB, by its {@link ServerDistribution})
 * with a throw-away data directory, for tests only (the binaries are GPL).
 *
 * <p>The binaries are extracted once per machine into {@code ~/.cache/eeoutbox/<cache name>}:
 * into a temporary sibling directory that is then renamed, so a killed build never leaves a
 * half-extracted cache and concurrent JVMs do not clash. Each {@link #start} initializes a new
 * data directory under {@code java.io.tmpdir} and starts the server on a free port of 127.0.0.1
 * with database {@code outbox}, user {@code root} and no password. Not thread-safe: the caller
 * starts and closes it once.
 */
final class LocalServer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(LocalServer.class.getName());

    private static final Duration INITIALIZE_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration START_TIMEOUT = Duration.ofMinutes(1);
    private static final int LOG_TAIL_LINES = 30;

    private final ServerDistribution distribution;
    private final Process process;
    private final Path workDir;
    private final int port;

    private LocalServer(ServerDistribution distribution, Process process, Path workDir, int port) {
        this.distribution = distribution;
        this.process = process;
        this.workDir = workDir;
        this.port = port;
    }

    /**
     * Extracts the binaries if needed, initializes a data directory, starts the server, waits until
     * it accepts connections and creates database {@code outbox}.
     *
     * @throws IOException if any step fails or times out; the message includes the server log tail
     */
    static LocalServer start(ServerDistribution distribution) throws IOException, InterruptedException {
        Path baseDir = binaries(distribution);
        Path tmpDir = Path.of(System.getProperty("java.io.tmpdir"));
        Files.createDirectories(tmpDir);
        Path workDir = Files.createTempDirectory(tmpDir, "eeoutbox-" + distribution.cacheName() + "-");
        LocalServer server = null;
        try {
            Path dataDir = workDir.resolve("data");
            Files.createDirectory(workDir.resolve("tmp"));
            long startNanos = System.nanoTime();
            initialize(distribution, baseDir, dataDir, workDir.resolve("initialize.log"));
            long initializedNanos = System.nanoTime();
            int port = Ports.free();
            Path log = workDir.resolve("server.log");
            Process process = new ProcessBuilder(distribution.serverCommand(baseDir, dataDir, workDir, port, log))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            server = new LocalServer(distribution, process, workDir, port);
            server.awaitReady(log);
            server.createDatabase();
            long readyNanos = System.nanoTime();
            LOG.log(System.Logger.Level.INFO, () -> distribution.displayName() + " in " + workDir
                    + ": initialized in " + (initializedNanos - startNanos) / 1_000_000 + " ms, started in "
                    + (readyNanos - initializedNanos) / 1_000_000 + " ms");
            return server;
        } catch (IOException | InterruptedException | RuntimeException e) {
            if (server != null) {
                server.close();
            } else {
                Dirs.deleteRecursivelyQuietly(workDir);
            }
            throw e;
        }
    }

    /** Returns the JDBC URL of database {@code outbox}. */
    String jdbcUrl() {
        return distribution.jdbcUrl(port, "outbox");
    }

    /**
     * Kills the server and deletes its data directory. A graceful shutdown would only flush data
     * that is deleted right after, so the process is killed; it needs no recovery afterwards.
     */
    @Override
    public void close() {
        process.destroyForcibly();
        try {
            if (process.waitFor(10, TimeUnit.SECONDS)) {
                Dirs.deleteRecursivelyQuietly(workDir);
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.log(System.Logger.Level.WARNING, "{0} server {1} may still run; leaving {2}",
                distribution.displayName(), process.pid(), workDir);
    }

    private static Path binaries(ServerDistribution distribution) throws IOException, InterruptedException {
        Path cacheDir = Path.of(System.getProperty("user.home"), ".cache", "eeoutbox");
        Path baseDir = cacheDir.resolve(distribution.cacheName());
        Path executable = baseDir.resolve(distribution.serverExecutable());
        if (Files.isExecutable(executable)) {
            return baseDir;
        }
        if (!System.getProperty("os.name").equals("Linux") || !System.getProperty("os.arch").equals("amd64")) {
            throw new IOException("The embedded " + distribution.displayName() + " runs on Linux x86-64 only;"
                    + " give an external server (see TestDatabases)");
        }
        long startNanos = System.nanoTime();
        Files.createDirectories(cacheDir);
        Path partial = Files.createTempDirectory(cacheDir, "." + distribution.cacheName() + "-");
        try {
            distribution.extract(partial);
            Files.move(partial, baseDir, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | InterruptedException | RuntimeException e) {
            Dirs.deleteRecursivelyQuietly(partial);
            if (!Files.isExecutable(executable)) {
                throw e;
            }
            // Another JVM renamed its copy into place first.
        }
        long millis = (System.nanoTime() - startNanos) / 1_000_000;
        LOG.log(System.Logger.Level.INFO, () -> "Extracted " + distribution.displayName() + " into " + baseDir
                + " in " + millis + " ms");
        return baseDir;
    }

    private static void initialize(ServerDistribution distribution, Path baseDir, Path dataDir, Path log)
            throws IOException, InterruptedException {
        Process process = new ProcessBuilder(distribution.initializeCommand(baseDir, dataDir, log))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        boolean finished = false;
        try {
            finished = process.waitFor(INITIALIZE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } finally {
            if (!finished) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        if (!finished) {
            throw new IOException("Initializing " + distribution.displayName() + " did not finish within "
                    + INITIALIZE_TIMEOUT + "; end of its log:\n" + tail(log));
        }
        if (process.exitValue() != 0) {
            throw new IOException("Initializing " + distribution.displayName() + " failed with exit code "
                    + process.exitValue() + "; end of its log:\n" + tail(log));
        }
    }

    /** Waits for the line both MySQL and MariaDB log once they accept connections. */
    private void awaitReady(Path log) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!read(log).contains("ready for connections")) {
            if (!process.isAlive()) {
                throw new IOException(distribution.displayName() + " exited with code " + process.exitValue()
                        + " while starting; end of its log:\n" + tail(log));
            }
            if (System.nanoTime() > deadline) {
                throw new IOException(distribution.displayName() + " was not ready within " + START_TIMEOUT
                        + "; end of its log:\n" + tail(log));
            }
            Thread.sleep(50);
        }
    }

    private void createDatabase() throws IOException {
        String url = distribution.jdbcUrl(port, "");
        try (Connection connection = DriverManager.getConnection(url, "root", "");
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE outbox");
        } catch (SQLException e) {
            throw new IOException("Could not create database outbox on " + url, e);
        }
    }

    /** Reads a log, replacing malformed bytes (it is only searched and shown). */
    private static String read(Path log) throws IOException {
        return Files.exists(log) ? new String(Files.readAllBytes(log), StandardCharsets.UTF_8) : "";
    }

    /** Returns the last lines of {@code log}, for an error message. */
    static String tail(Path log) {
        try {
            List<String> lines = read(log).lines().toList();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }
}
