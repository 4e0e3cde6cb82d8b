package org.eeoutbox.cdi.internal;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eeoutbox.engine.internal.OutageLog;

/**
 * Runs the outbox's tasks on the container's managed executor: periodic ones when the
 * {@link OutboxTrigger} calls (a task still running when it is called again is skipped, so a task
 * never overlaps itself), requested ones as soon as the worker can (a burst of requests that
 * comes before the run starts is one run). Guarded so that no exception ends a schedule, and
 * counted so that {@link #stop} can wait for the tasks in flight. A task's failures are logged
 * through an {@link OutageLog} of its own: the first with its trace, then one summary line every
 * 30 s while they go on, then one line when the task works again.
 *
 * <p>The trigger only hands work over: a long drain never holds up the purger or the gauges'
 * refresh, even where the trigger has a single thread (Payara's default scheduled executor).
 *
 * <p>Thread-safe. Owns no thread: the executors are the container's, and only the schedules made
 * here are cancelled on stop.
 */
final class OutboxTasks {

    private static final Logger LOG = System.getLogger(OutboxTasks.class.getName());

    private final OutboxTrigger trigger;
    private final Executor worker;
    private final InstantSource clock;
    private final Map<String, OutageLog> failures = new ConcurrentHashMap<>();
    private final List<OutboxTrigger.Schedule> schedules = new ArrayList<>();
    private final Object lock = new Object();
    private int inFlight;
    private boolean stopped;

    /**
     * @param trigger calls the periodic tasks
     * @param worker  runs every task; inside a server, a managed executor
     */
    OutboxTasks(OutboxTrigger trigger, Executor worker) {
        this(trigger, worker, InstantSource.system());
    }

    /** As above, with the clock that times a task's failures given, for tests. */
    OutboxTasks(OutboxTrigger trigger, Executor worker, InstantSource clock) {
        this.trigger = Objects.requireNonNull(trigger, "trigger");
        this.worker = Objects.requireNonNull(worker, "worker");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Runs {@code task} after {@code initialDelay}, then about every {@code interval} unless it still runs. */
    void every(String name, Duration initialDelay, Duration interval, Runnable task) {
        AtomicBoolean running = new AtomicBoolean();
        Runnable tick = () -> {
            if (running.compareAndSet(false, true)) {
                submit(name, task, () -> running.set(false));
            }
        };
        synchronized (lock) {
            if (!stopped) {
                schedules.add(trigger.every(name, initialDelay, interval, tick));
            }
        }
    }

    /**
     * Returns a request to run {@code task} once, as soon as the worker can. The requests made
     * before that run starts are one request, served by that run: a burst of them costs one
     * hand-over to the worker, the part of a request that costs most inside a server (a managed
     * executor captures the caller's context at every hand-over). A request made after the run
     * started asks for another run. The returned request is thread-safe and does nothing once
     * this is stopped.
     */
    Runnable coalescing(String name, Runnable task) {
        AtomicBoolean queued = new AtomicBoolean();
        Runnable run = () -> {
            queued.set(false);
            task.run();
        };
        return () -> {
            if (queued.compareAndSet(false, true)) {
                submit(name, run, () -> queued.set(false));
            }
        };
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
            schedules.forEach(OutboxTrigger.Schedule::cancel);
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

    /** Hands {@code task} to the worker; {@code done} runs after it, or at once if it never runs. */
    private void submit(String name, Runnable task, Runnable done) {
        synchronized (lock) {
            if (stopped) {
                done.run();
                return;
            }
            inFlight++;
        }
        try {
            worker.execute(() -> run(name, task, done));
        } catch (RejectedExecutionException e) {
            LOG.log(Level.DEBUG, "Executor refused outbox task {0}; the next poll runs it", name);
            finished(done);
        }
    }

    private void run(String name, Runnable task, Runnable done) {
        try {
            if (!isStopped()) {
                task.run();
                failures(name).succeeded();
            }
        } catch (Throwable e) {
            // Never let an exception end a schedule.
            failures(name).failed(e);
        } finally {
            finished(done);
        }
    }

    private OutageLog failures(String name) {
        return failures.computeIfAbsent(name, task -> new OutageLog(LOG, "Outbox task '" + task + "'",
                "it runs again on schedule", OutageLog.DEFAULT_INTERVAL, clock));
    }

    private boolean isStopped() {
        synchronized (lock) {
            return stopped;
        }
    }

    private void finished(Runnable done) {
        done.run();
        synchronized (lock) {
            inFlight--;
            lock.notifyAll();
        }
    }
}
