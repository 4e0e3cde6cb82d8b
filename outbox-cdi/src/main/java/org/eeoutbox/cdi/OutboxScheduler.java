package org.eeoutbox.cdi;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs the outbox's periodic tasks on the container's managed scheduled executor: each task with
 * a fixed delay (so a task never overlaps itself), guarded so that no exception ends its
 * schedule, and counted so that {@link #stop} can wait for the ones in flight.
 *
 * <p>Thread-safe. Owns no thread: the executor is the container's, and only the tasks scheduled
 * here are cancelled on stop.
 */
final class OutboxScheduler {

    private static final Logger LOG = System.getLogger(OutboxScheduler.class.getName());

    private final ScheduledExecutorService executor;
    private final List<ScheduledFuture<?>> schedules = new ArrayList<>();
    private final Object lock = new Object();
    private int inFlight;
    private boolean stopped;

    OutboxScheduler(ScheduledExecutorService executor) {
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /** Runs {@code task} after {@code initialDelay}, then again {@code delay} after each run ends. */
    void every(String name, Duration initialDelay, Duration delay, Runnable task) {
        synchronized (lock) {
            if (stopped) {
                return;
            }
            schedules.add(executor.scheduleWithFixedDelay(guarded(name, task), initialDelay.toMillis(),
                    delay.toMillis(), TimeUnit.MILLISECONDS));
        }
    }

    /** Runs {@code task} once, as soon as the executor can; does nothing once stopped. */
    void now(String name, Runnable task) {
        synchronized (lock) {
            if (stopped) {
                return;
            }
        }
        try {
            executor.execute(guarded(name, task));
        } catch (RejectedExecutionException e) {
            LOG.log(Level.DEBUG, "Executor refused outbox task {0}; the next poll runs it", name);
        }
    }

    /**
     * Cancels every schedule and waits up to {@code timeout} for running tasks to finish.
     *
     * @return whether every task finished in time
     */
    boolean stop(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            stopped = true;
            schedules.forEach(schedule -> schedule.cancel(false));
            schedules.clear();
            while (inFlight > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(lock, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }

    private Runnable guarded(String name, Runnable task) {
        return () -> {
            synchronized (lock) {
                if (stopped) {
                    return;
                }
                inFlight++;
            }
            try {
                task.run();
            } catch (Throwable e) {
                // Never let an exception end a fixed-delay schedule.
                LOG.log(Level.ERROR, "Outbox task " + name + " failed; it runs again on schedule", e);
            } finally {
                synchronized (lock) {
                    inFlight--;
                    lock.notifyAll();
                }
            }
        };
    }
}
