package org.eeoutbox.it.support;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The log file of the server under test, named by {@value ItConfig#SERVER_LOG} (each server
 * profile sets it). Test JVM only.
 *
 * <p>For what only the server's log shows, such as why a deployment failed: the Payara Micro
 * connector does not notice a failed deployment at all, and the other connectors' exceptions do not
 * always carry the cause's message. Read what was written after a {@link #mark()}.
 */
public final class ServerLog {

    private final Path file;

    private ServerLog(Path file) {
        this.file = file;
    }

    /**
     * Returns the server's log.
     *
     * @throws IllegalStateException if {@value ItConfig#SERVER_LOG} is not set
     */
    public static ServerLog current() {
        String path = System.getProperty(ItConfig.SERVER_LOG);
        if (path == null || path.isBlank()) {
            throw new IllegalStateException(ItConfig.SERVER_LOG + " is not set: the server profile of outbox-it sets it");
        }
        return new ServerLog(Path.of(path));
    }

    /** Returns the current end of the log (0 if it does not exist yet). */
    public long mark() {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Waits until the log written after {@code mark} contains {@code text} (servers write their log
     * asynchronously).
     *
     * @return everything written after {@code mark} (the log rewritten from its start if it shrank)
     * @throws org.awaitility.core.ConditionTimeoutException if {@code text} was not written within
     *                                                       {@code patience}; the message shows the log
     */
    public String awaitAfter(long mark, String text, Duration patience) {
        return await(this + " after mark " + mark).atMost(patience).pollInterval(Duration.ofMillis(200))
                .until(() -> after(mark), containsString(text));
    }

    /** Returns whether the log written after {@code mark} contains {@code text} now, without waiting. */
    public boolean containsAfter(long mark, String text) {
        return after(mark).contains(text);
    }

    private String after(long mark) {
        if (!Files.exists(file)) {
            return "";
        }
        try (RandomAccessFile log = new RandomAccessFile(file.toFile(), "r")) {
            long start = log.length() < mark ? 0 : mark;
            byte[] bytes = new byte[(int) (log.length() - start)];
            log.seek(start);
            log.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return file.toString();
    }
}
