package org.eeoutbox.testkit;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Waiting for a condition, on Awaitility, for the waits whose failure message describes the state
 * at the timeout (which an Awaitility alias, fixed when the wait starts, cannot). Use Awaitility
 * directly for the others. The condition runs on the calling thread (so also inside a container,
 * on a container thread), first at once, then every {@code interval}.
 */
public final class Await {

    private Await() {
    }

    /**
     * Returns once {@code condition} is true.
     *
     * @param failure the message of the failure, built when the time ran out
     * @throws AssertionError if {@code condition} was not true within {@code timeout}; an exception
     *                        of the condition is thrown as it is
     */
    public static void until(Duration timeout, Duration interval, Callable<Boolean> condition, Supplier<String> failure) {
        try {
            Awaitility.await().atMost(timeout).pollInSameThread().pollDelay(Duration.ZERO).pollInterval(interval)
                    .until(condition);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(failure.get(), e);
        }
    }

    /**
     * Waits up to 30 seconds for {@code latch} to open.
     *
     * @throws AssertionError if it does not; IllegalStateException if the thread is interrupted
     */
    public static void open(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("the latch did not open within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Calls {@code drain} (such as an {@code OutboxProcessor}'s) until no row of table
     * {@code outbox} in {@code database} is {@code PENDING}, checking before each call.
     *
     * @return the sum of what the calls of {@code drain} returned
     * @throws AssertionError if rows were still pending after {@code timeout}
     */
    public static int drained(TestDatabase database, IntSupplier drain, Duration timeout) {
        AtomicInteger processed = new AtomicInteger();
        until(timeout, Duration.ofMillis(1), () -> {
            if (database.queryForLong("SELECT COUNT(*) FROM outbox WHERE status = 'PENDING'") == 0) {
                return true;
            }
            processed.addAndGet(drain.getAsInt());
            return false;
        }, () -> "entries still pending after " + timeout);
        return processed.get();
    }
}
