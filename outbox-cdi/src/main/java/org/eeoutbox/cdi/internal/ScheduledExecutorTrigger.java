package org.eeoutbox.cdi.internal;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The default {@link OutboxTrigger}: the container's managed scheduled executor
 * ({@code outbox.managed-scheduled-executor}). Thread-safe; owns no thread.
 */
final class ScheduledExecutorTrigger implements OutboxTrigger {

    private final ScheduledExecutorService executor;

    ScheduledExecutorTrigger(ScheduledExecutorService executor) {
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    @Override
    public Schedule every(String name, Duration initialDelay, Duration interval, Runnable tick) {
        ScheduledFuture<?> future = executor.scheduleWithFixedDelay(tick, initialDelay.toMillis(), interval.toMillis(),
                TimeUnit.MILLISECONDS);
        return () -> future.cancel(false);
    }
}
