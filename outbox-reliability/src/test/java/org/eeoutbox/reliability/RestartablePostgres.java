package org.eeoutbox.reliability;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;

/**
 * An embedded PostgreSQL 17 (zonky) that can be stopped and started again as a real server would
 * be restarted: the same data directory and the same port, so clients holding the old address
 * reconnect. zonky runs {@code initdb} only when the directory holds no {@code postgresql.conf},
 * and leaves the directory in place on close when told not to clean it.
 */
final class RestartablePostgres {

    private final Path dataDirectory;
    private final Path binaries;
    private final int port;
    private EmbeddedPostgres server; // null while stopped; guarded by this

    /**
     * @param dataDirectory where its data lives across restarts (created by the first start)
     * @param binaries      where zonky unpacks the PostgreSQL binaries
     * @param port          its port, kept across restarts
     */
    RestartablePostgres(Path dataDirectory, Path binaries, int port) {
        this.dataDirectory = dataDirectory;
        this.binaries = binaries;
        this.port = port;
    }

    int port() {
        return port;
    }

    /** Starts the server (the first time, on a new data directory); does nothing if it runs. */
    synchronized void start() throws IOException {
        if (server != null) {
            return;
        }
        server = EmbeddedPostgres.builder()
                .setOverrideWorkingDirectory(binaries.toFile())
                .setDataDirectory(dataDirectory)
                .setCleanDataDirectory(false)
                .setPort(port)
                .setRegisterShutdownHook(false)
                .setServerConfig("fsync", "off")
                .setServerConfig("max_connections", "200")
                .start();
    }

    /** Stops the server (a fast shutdown: sessions are ended, open transactions roll back). */
    synchronized void stop() throws IOException {
        if (server != null) {
            EmbeddedPostgres stopping = server;
            server = null;
            stopping.close();
        }
    }
}
