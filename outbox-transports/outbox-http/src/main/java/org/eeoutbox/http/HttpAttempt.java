package org.eeoutbox.http;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.OutboxEntry;

/**
 * One request of a {@link HttpMessageDeliverer#deliverBatch} call: its entry and service, its
 * deadline, its exchange with the {@link HttpSender}, and its outcome once decided. It holds one
 * of the deliverer's in-flight permits from creation until {@link #release()}, which returns the
 * permit exactly once whoever calls it.
 *
 * <p>Created, sent and decided by the calling thread; the client's threads call
 * {@link #release()} (thread-safe). Nothing here throws.
 */
final class HttpAttempt {

    final OutboxEntry entry;
    final String service;
    /** The {@link System#nanoTime()} by which the attempt must end. */
    final long deadline;
    private final Semaphore permits;
    private final AtomicBoolean released = new AtomicBoolean();
    /** The exchange; null until sent, and when the sender threw. */
    HttpSender.Exchange exchange;
    /** The outcome, once decided before the batch waits for it. */
    DeliveryResult result;

    HttpAttempt(HttpRequests.Prepared prepared, long deadline, Semaphore permits) {
        this.entry = prepared.entry();
        this.service = prepared.service();
        this.deadline = deadline;
        this.permits = permits;
    }

    /** Whether the request is in flight without an outcome. */
    boolean pending() {
        return result == null && exchange != null && !exchange.reply().isDone();
    }

    /** Returns the permit, the first time only. */
    void release() {
        if (released.compareAndSet(false, true)) {
            permits.release();
        }
    }
}
