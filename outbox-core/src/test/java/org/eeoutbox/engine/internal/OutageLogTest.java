package org.eeoutbox.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The outage logging measured as the issue asks, in log records per minute of outage, on a
 * simulated clock; the records are caught by a JUL handler, where System.Logger sends them.
 */
class OutageLogTest {

    private static final String LOGGER = "org.eeoutbox.test.OutageLogTest";
    private static final Instant START = Instant.parse("2026-12-03T12:00:00Z");
    private static final RuntimeException DOWN =
            new IllegalStateException("connection refused", new SQLException("Connection to localhost:5432 refused"));

    private final CapturedLog captured = CapturedLog.of(LOGGER);
    private volatile Instant now = START;
    private final OutageLog log = new OutageLog(System.getLogger(LOGGER), "Outbox batch processing",
            "rolled back, its entries stay pending", OutageLog.DEFAULT_INTERVAL, () -> now);

    @AfterEach
    void release() {
        captured.close();
    }

    @Test
    void aTwentyFourSecondOutageLogsOneTraceAndOneRecoveryLine() {
        failEverySecondFor(24);
        log.succeeded();

        assertEquals(2, captured.records().size(), lines());
        LogRecord first = captured.records().get(0);
        assertEquals(Level.WARNING, first.getLevel());
        assertNotNull(first.getThrown(), "the first failure carries its trace");
        assertTrue(first.getMessage().contains("Outbox batch processing failed (rolled back, its entries stay pending)")
                && first.getMessage().contains("connection refused"), first.getMessage());
        LogRecord recovery = captured.records().get(1);
        assertEquals(Level.INFO, recovery.getLevel());
        assertEquals("Outbox batch processing works again after 24 s and 24 failed attempts", recovery.getMessage());
    }

    @Test
    void aTenMinuteOutageLogsAtMostThreeLinesPerMinuteAndOneTrace() {
        int[] perMinute = new int[10];
        for (int second = 0; second < 600; second++) {
            int before = captured.records().size();
            for (int worker = 0; worker < 4; worker++) {
                log.failed(DOWN);
            }
            perMinute[second / 60] += captured.records().size() - before;
            now = now.plusSeconds(1);
        }
        log.succeeded();

        // Recorded per simulated minute: 1 first line + 1 summary (at 30 s), then 2 summaries a minute.
        assertEquals(2, perMinute[0], lines());
        for (int minute = 1; minute < 10; minute++) {
            assertEquals(2, perMinute[minute], "minute " + minute + ": " + lines());
        }
        assertEquals(1, captured.traces(), "one trace: " + lines());
        List<LogRecord> records = captured.records();
        assertEquals(21, records.size(), "20 in the outage, then the recovery line: " + lines());
        assertTrue(records.get(1).getMessage().startsWith("Outbox batch processing still failing after 30 s: 121 "
                + "failed attempts, none succeeded since; last error: java.lang.IllegalStateException"), lines());
        assertEquals("Outbox batch processing works again after 600 s and 2400 failed attempts",
                records.get(records.size() - 1).getMessage());
    }

    @Test
    void aTaskThatFailsAndWorksByTurnsLogsOneTracePerInterval() {
        for (int second = 0; second < 60; second++) {
            if (second % 2 == 0) {
                log.failed(DOWN);
            } else {
                log.succeeded();
            }
            now = now.plusSeconds(1);
        }

        // t=0 failure + t=1 recovery, t=32 failure (naming the 15 silent ones) + t=33 recovery.
        assertEquals(4, captured.records().size(), lines());
        assertEquals(2, captured.traces(), lines());
        assertTrue(captured.records().get(2).getMessage().endsWith("(15 earlier failures were not logged)"), lines());
    }

    @Test
    void aSuccessWithoutFailuresLogsNothing() {
        log.succeeded();
        log.succeeded();
        assertTrue(captured.records().isEmpty(), lines());
    }

    @Test
    void concurrentFailuresLogOneTrace() throws InterruptedException {
        ExecutorService threads = Executors.newFixedThreadPool(8);
        CountDownLatch start = new CountDownLatch(1);
        for (int i = 0; i < 8; i++) {
            threads.execute(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                for (int j = 0; j < 1000; j++) {
                    log.failed(DOWN);
                }
            });
        }
        start.countDown();
        threads.shutdown();
        assertTrue(threads.awaitTermination(10, TimeUnit.SECONDS));
        log.succeeded();

        assertEquals(2, captured.records().size(), lines());
        assertEquals("Outbox batch processing works again after 0 s and 8000 failed attempts",
                captured.records().get(1).getMessage());
    }

    private void failEverySecondFor(int seconds) {
        for (int second = 0; second < seconds; second++) {
            log.failed(DOWN);
            now = now.plusSeconds(1);
        }
    }

    private String lines() {
        return String.join("\n", captured.messages(Level.ALL));
    }
}
