package org.eeoutbox.testkit;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * One MySQL-family server product as {@link LocalServer} runs it: where its binaries come from,
 * how a data directory is initialized and how the server is started. Implementations are
 * stateless and thread-safe.
 */
interface ServerDistribution {

    /** Returns the product and version for messages, such as {@code MySQL 8.0.15}. */
    String displayName();

    /** Returns the name of the directory under {@code ~/.cache/eeoutbox} holding the binaries. */
    String cacheName();

    /** Returns the server executable, relative to the binaries' directory. */
    String serverExecutable();

    /**
     * Writes the binaries into the empty directory {@code target}.
     *
     * @throws IOException if they are not on the class path or cannot be written
     */
    void extract(Path target) throws IOException, InterruptedException;

    /** Returns the command that initializes {@code dataDir}, writing its messages to {@code log}. */
    List<String> initializeCommand(Path baseDir, Path dataDir, Path log);

    /**
     * Returns the command that runs the server on 127.0.0.1:{@code port}, writing its log to
     * {@code log} and its temporary files under {@code workDir/tmp}.
     */
    List<String> serverCommand(Path baseDir, Path dataDir, Path workDir, int port, Path log);

    /** Returns the JDBC URL of {@code database} ({@code ""} for none) on {@code port}. */
    String jdbcUrl(int port, String database);
}
