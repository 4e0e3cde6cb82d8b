package org.eeoutbox.cdi.internal;

import java.time.Duration;

/**
 * What calls the outbox's periodic tasks (polls, purges, gauge refreshes): by default the
 * container's {@code ManagedScheduledExecutorService}; with {@code outbox.trigger=ejb-timer},
 * the Enterprise Beans timer of {@code outbox-ejb}, which provides the only other implementation
 *, bound as a session bean.
 *
 * <p>A trigger only calls: each {@code tick} hands its work to the managed executor and returns
 * at once, skips a run while the previous one of the same task is still going, and never throws.
 * Implementations must be thread-safe.
 */
public interface OutboxTrigger {

    /**
     * Calls {@code tick} after {@code initialDelay} and then about every {@code interval}, until
     * the returned schedule is cancelled. Called once per task when the outbox starts, outside any
     * transaction.
     *
     * @param name a task name unique among this outbox's schedules, for logs and timer information
     */
    Schedule every(String name, Duration initialDelay, Duration interval, Runnable tick);

    /** A running periodic call. */
    interface Schedule {

        /** Stops further calls; a call in progress completes. Idempotent. */
        void cancel();
    }
}
