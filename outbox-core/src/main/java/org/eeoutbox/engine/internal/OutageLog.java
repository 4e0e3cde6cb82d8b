package org.eeoutbox.engine.internal;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;

/**
 * Logs the failures of a task that runs again and again (a batch, the purger, the gauges' refresh)
 * so that an outage of its database neither floods the log nor goes unseen: the first failure at
 * {@code WARNING} with its stack trace; while the failures go on, one {@code WARNING} line per
 * summary interval saying for how long, how many attempts failed and the last error; on the first
 * success after them, one {@code INFO} line saying it works again. A line about failures comes at
 * least one interval after the previous line, so a task that fails and works by turns logs about two lines (one trace) per interval:
 * failures within an interval of the last line are counted silently and named in the next line.
 *
 * <p>Thread-safe: workers report concurrently.
 */
public final class OutageLog {

    /** The summary interval the runtime uses. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(30);

    private final Logger logger;
    private final String subject;
    private final String consequence;
    private final Duration interval;
    private final InstantSource clock;

    /** When the failures going on began, or null while the task works. */
    private Instant since;
    /** Whether a line has said that the failures going on began. */
    private boolean reported;
    private long failures;
    private long unreported;
    private Instant lastLine;

    /**
     * @param logger      where the lines go
     * @param subject     what fails, as the lines' subject: {@code "Outbox batch processing"}
     * @param consequence what a failure means, for the first line: {@code "rolled back, its entries stay pending"}
     * @param interval    the shortest time between two lines about failures
     * @param clock       tells the time; the failures' duration is measured on it
     */
    public OutageLog(Logger logger, String subject, String consequence, Duration interval, InstantSource clock) {
        this.logger = Objects.requireNonNull(logger, "logger");
        this.subject = Objects.requireNonNull(subject, "subject");
        this.consequence = Objects.requireNonNull(consequence, "consequence");
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval must be positive, got " + interval);
        }
        this.interval = interval;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Reports one failed run. */
    public void failed(Throwable failure) {
        Instant now = clock.instant();
        String line;
        Throwable trace = null;
        synchronized (this) {
            failures++;
            unreported++;
            if (since == null) {
                since = now;
                failures = 1;
                reported = false;
            }
            if (lastLine != null && elapsed(lastLine, now).compareTo(interval) < 0) {
                return;
            }
            if (!reported) {
                line = subject + " failed (" + consequence + "): " + failure + "; until it works again, one line every "
                        + seconds(interval) + " sums up the failures"
                        + (unreported > 1 ? " (" + (unreported - 1) + " earlier failures were not logged)" : "");
                trace = failure;
                reported = true;
            } else {
                line = subject + " still failing after " + seconds(elapsed(since, now)) + ": " + failures
                        + " failed attempts, none succeeded since; last error: " + failure;
            }
            lastLine = now;
            unreported = 0;
        }
        if (trace == null) {
            logger.log(Level.WARNING, line);
        } else {
            logger.log(Level.WARNING, line, trace);
        }
    }

    /** Reports one successful run; ends failures that were logged with one line. Cheap when there were none. */
    public void succeeded() {
        String line;
        synchronized (this) {
            if (since == null) {
                return;
            }
            Instant now = clock.instant();
            line = reported ? subject + " works again after " + seconds(elapsed(since, now)) + " and " + failures
                    + " failed attempts" : null;
            since = null;
            if (line == null) {
                return;
            }
            reported = false;
            lastLine = now;
        }
        logger.log(Level.INFO, line);
    }

    private static Duration elapsed(Instant from, Instant to) {
        Duration elapsed = Duration.between(from, to);
        return elapsed.isNegative() ? Duration.ZERO : elapsed;
    }

    private static String seconds(Duration duration) {
        return duration.toSeconds() + " s";
    }
}
