package org.eeoutbox.engine;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Work handed to an executor, which the handing thread runs itself if no executor thread has
 * started it by the time that thread needs its result. So a worker never waits for work still
 * queued in a saturated executor (whose threads may all be workers waiting the same way), and
 * work the executor refuses runs all the same.
 *
 * <p>The work runs at most once, and exactly once unless {@link #joinIfStarted} finds it not
 * started. {@link #join} and {@link #joinIfStarted} are meant for the thread that called
 * {@link #start}; {@link #isDone} may be called from any thread.
 *
 * @param <T> the work's result
 */
final class Offloaded<T> {

    private final Supplier<T> work;
    private final AtomicBoolean started = new AtomicBoolean();
    private final CompletableFuture<T> result = new CompletableFuture<>();

    private Offloaded(Supplier<T> work) {
        this.work = work;
    }

    /** Hands {@code work} to {@code executor}; never throws for a refusal (then {@link #join} runs it). */
    static <T> Offloaded<T> start(Supplier<T> work, Executor executor) {
        Offloaded<T> offloaded = new Offloaded<>(work);
        try {
            executor.execute(offloaded::runUnlessStarted);
        } catch (RejectedExecutionException e) {
            // join() runs it on the caller's thread.
        }
        return offloaded;
    }

    /** Returns work already done, whose {@link #join} returns {@code value} on any thread. */
    static <T> Offloaded<T> done(T value) {
        Offloaded<T> offloaded = new Offloaded<>(() -> value);
        offloaded.runUnlessStarted();
        return offloaded;
    }

    /** Whether the work has finished. */
    boolean isDone() {
        return result.isDone();
    }

    /**
     * Returns the work's result: runs the work on this thread if no executor thread has started
     * it, else waits for it.
     *
     * @throws java.util.concurrent.CompletionException if the work threw, with what it threw as cause
     */
    T join() {
        runUnlessStarted();
        return result.join();
    }

    /**
     * Returns the work's result if an executor thread has started it, waiting for it to finish;
     * else returns {@code otherwise}, and the work never runs (the executor's thread, if it ever
     * gets to it, does nothing).
     *
     * @throws java.util.concurrent.CompletionException if the work threw, with what it threw as cause
     */
    T joinIfStarted(T otherwise) {
        if (started.compareAndSet(false, true)) {
            result.complete(otherwise);
        }
        return result.join();
    }

    private void runUnlessStarted() {
        if (started.compareAndSet(false, true)) {
            try {
                result.complete(work.get());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        }
    }
}
