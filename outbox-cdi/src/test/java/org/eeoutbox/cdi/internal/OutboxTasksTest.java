package org.eeoutbox.cdi.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import java.util.logging.SimpleFormatter;
import java.util.logging.StreamHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The tasks's hand-over logic, with a trigger the test fires by hand. */
class OutboxTasksTest {

    /** Records the ticks it is given; {@link #fire} calls them as a timer would. */
    private static final class ManualTrigger implements OutboxTrigger {
        final List<Runnable> ticks = new ArrayList<>();
        final AtomicInteger cancelled = new AtomicInteger();

        @Override
        public Schedule every(String name, Duration initialDelay, Duration interval, Runnable tick) {
            ticks.add(tick);
            return cancelled::incrementAndGet;
        }

        void fire(int task) {
            ticks.get(task).run();
        }
    }

    private final ManualTrigger trigger = new ManualTrigger();
    private final ExecutorService worker = Executors.newCachedThreadPool();
    private final OutboxTasks tasks = new OutboxTasks(trigger, worker);
    /** What {@link #byHand} hands over, for the test to run. */
    private final List<Runnable> handedOver = new ArrayList<>();
    private final OutboxTasks byHand = new OutboxTasks(trigger, handedOver::add);

    @AfterEach
    void shutDown() {
        worker.shutdownNow();
    }

    @Test
    void aLongTaskDoesNotHoldUpTheOthers() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch otherRan = new CountDownLatch(1);
        tasks.every("drain", Duration.ZERO, Duration.ofSeconds(1), () -> await(release));
        tasks.every("stats", Duration.ZERO, Duration.ofSeconds(1), otherRan::countDown);

        trigger.fire(0);
        trigger.fire(1);

        assertTrue(otherRan.await(5, TimeUnit.SECONDS), "the second task ran while the first was still running");
        release.countDown();
    }

    @Test
    void aTaskStillRunningIsSkippedNotOverlapped() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        tasks.every("drain", Duration.ZERO, Duration.ofSeconds(1), blocking(runs, started, release));

        trigger.fire(0);
        assertTrue(started.await(5, TimeUnit.SECONDS));
        trigger.fire(0);
        trigger.fire(0);
        release.countDown();
        assertTrue(tasks.stop(Duration.ofSeconds(5)));

        assertEquals(1, runs.get(), "ticks during a run are skipped");
    }

    @Test
    void anExceptionDoesNotEndTheSchedule() {
        OutboxTasks inline = new OutboxTasks(trigger, Runnable::run);
        AtomicInteger runs = new AtomicInteger();
        inline.every("drain", Duration.ZERO, Duration.ofSeconds(1), () -> {
            runs.incrementAndGet();
            throw new IllegalStateException("database down");
        });

        trigger.fire(0);
        trigger.fire(0);

        assertEquals(2, runs.get(), "ran again after throwing");
    }

    @Test
    void aTaskFailingEverySecondLogsOneTraceAndTwoLinesPerMinuteThenARecoveryLine() {
        Instant[] now = {Instant.parse("2026-12-03T12:00:00Z")};
        OutboxTasks inline = new OutboxTasks(trigger, Runnable::run, () -> now[0]);
        AtomicBoolean down = new AtomicBoolean(true);
        inline.every("stats", Duration.ZERO, Duration.ofSeconds(1), () -> {
            if (down.get()) {
                throw new IllegalStateException("database unreachable");
            }
        });
        // What the server's log file would show: SimpleFormatter's two lines a record, then any trace.
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        StreamHandler handler = new StreamHandler(file, new SimpleFormatter());
        Logger logger = Logger.getLogger(OutboxTasks.class.getName());
        logger.addHandler(handler);
        String outage;
        String recovery;
        try {
            for (int second = 0; second < 120; second++) {
                trigger.fire(0);
                now[0] = now[0].plusSeconds(1);
            }
            handler.flush();
            outage = file.toString(StandardCharsets.UTF_8);
            file.reset();
            down.set(false);
            trigger.fire(0);
            trigger.fire(0);
            handler.flush();
            recovery = file.toString(StandardCharsets.UTF_8);
        } finally {
            logger.removeHandler(handler);
        }

        assertEquals(4, count(outage, "\nWARNING: "), "two records a minute of outage:\n" + outage);
        assertEquals(1, count(outage, "\nCaused by: ") + count(outage, "\njava.lang.IllegalStateException: database"),
                "one trace:\n" + outage);
        assertTrue(outage.contains("WARNING: Outbox task 'stats' failed (it runs again on schedule): "
                + "java.lang.IllegalStateException: database unreachable"), outage);
        assertTrue(outage.contains("WARNING: Outbox task 'stats' still failing after 90 s: 91 failed attempts"), outage);
        assertTrue(recovery.endsWith("INFO: Outbox task 'stats' works again after 120 s and 120 failed attempts"
                + System.lineSeparator()), recovery);
    }

    private static int count(String text, String part) {
        return text.split(Pattern.quote(part), -1).length - 1;
    }

    @Test
    void stopCancelsTheSchedulesWaitsForRunningTasksAndRunsNoMore() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        tasks.every("drain", Duration.ZERO, Duration.ofSeconds(1), blocking(runs, started, release));
        trigger.fire(0);
        assertTrue(started.await(5, TimeUnit.SECONDS));

        assertFalse(tasks.stop(Duration.ofMillis(100)), "a task still runs");
        assertEquals(1, trigger.cancelled.get());
        release.countDown();
        assertTrue(tasks.stop(Duration.ofSeconds(5)));

        trigger.fire(0);
        tasks.coalescing("wake-up", runs::incrementAndGet).run();
        worker.shutdown();
        assertTrue(worker.awaitTermination(5, TimeUnit.SECONDS));
        assertEquals(1, runs.get(), "nothing runs after stop");
    }

    @Test
    void requestsMadeBeforeTheRunStartsAreServedByOneRun() {
        AtomicInteger runs = new AtomicInteger();
        Runnable request = byHand.coalescing("wake-up", runs::incrementAndGet);

        request.run();
        request.run();
        request.run();
        assertEquals(1, handedOver.size(), "three requests before the run started: one hand-over");

        handedOver.get(0).run();
        assertEquals(1, runs.get());
        request.run();
        assertEquals(2, handedOver.size(), "a request after the run started asks for another");
    }

    @Test
    void aRequestMadeWhileTheRunRunsAsksForAnotherRun() {
        AtomicInteger runs = new AtomicInteger();
        Runnable[] request = new Runnable[1];
        request[0] = byHand.coalescing("wake-up", () -> {
            if (runs.incrementAndGet() == 1) {
                request[0].run();
            }
        });

        request[0].run();
        handedOver.get(0).run();
        assertEquals(2, handedOver.size(), "the run had started: what it read may predate the request");
        handedOver.get(1).run();
        assertEquals(2, runs.get());
    }

    @Test
    void aRefusedHandOverDoesNotSwallowTheNextRequests() {
        AtomicBoolean refuse = new AtomicBoolean(true);
        OutboxTasks refusing = new OutboxTasks(trigger, task -> {
            if (refuse.get()) {
                throw new RejectedExecutionException("saturated");
            }
            handedOver.add(task);
        });
        AtomicInteger runs = new AtomicInteger();
        Runnable request = refusing.coalescing("wake-up", runs::incrementAndGet);

        request.run();
        refuse.set(false);
        request.run();
        assertEquals(1, handedOver.size(), "the refused request is not taken for one waiting to run");
        handedOver.get(0).run();
        assertEquals(1, runs.get());
    }

    /** A task that counts its runs, says it started, and waits for {@code release}. */
    private static Runnable blocking(AtomicInteger runs, CountDownLatch started, CountDownLatch release) {
        return () -> {
            runs.incrementAndGet();
            started.countDown();
            await(release);
        };
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(10, TimeUnit.SECONDS), "not released within 10 s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
