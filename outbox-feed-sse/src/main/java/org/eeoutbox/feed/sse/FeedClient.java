package org.eeoutbox.feed.sse;

import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.eeoutbox.spi.FeedEvent;

/**
 * One connected client of a channel: a bounded buffer of events read for it, and a sender that
 * writes them to its {@link SseEventSink} one at a time on the managed executor, so that a client
 * whose writes block holds up only its own sender. Only the {@link FeedHub}'s serialized tick
 * offers events and moves the cursor; the sender runs beside it.
 */
final class FeedClient {

    private static final Logger LOG = System.getLogger(FeedClient.class.getName());

    private final String channel;
    private final SseEventSink sink;
    private final Sse sse;
    private final int capacity;
    private final Executor executor;
    private final Runnable onDrained;
    private final Queue<FeedEvent> buffer = new ConcurrentLinkedQueue<>();
    private final AtomicInteger buffered = new AtomicInteger();
    private final AtomicBoolean sending = new AtomicBoolean();
    private final AtomicLong sent = new AtomicLong();
    private volatile boolean closed;
    /** The cursor of the last event buffered: the client has, or will have, every event up to it. */
    private long cursor;
    /** The tick's view of progress: sent count when the buffer was first seen full, and when. */
    private long sentWhenFull = -1;
    private long fullSince;

    /**
     * @param cursor    where the client starts: it receives the events after it
     * @param onDrained called when the sender has emptied the buffer (the hub reads more)
     */
    FeedClient(String channel, SseEventSink sink, Sse sse, long cursor, int capacity, Executor executor,
               Runnable onDrained) {
        this.channel = Objects.requireNonNull(channel, "channel");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.sse = Objects.requireNonNull(sse, "sse");
        this.cursor = cursor;
        this.capacity = capacity;
        this.executor = Objects.requireNonNull(executor, "executor");
        this.onDrained = Objects.requireNonNull(onDrained, "onDrained");
    }

    String channel() {
        return channel;
    }

    long cursor() {
        return cursor;
    }

    /** Returns how many more events the buffer takes. */
    int free() {
        return capacity - buffered.get();
    }

    boolean isClosed() {
        return closed || sink.isClosed();
    }

    /**
     * Buffers {@code event}, the next one after the cursor, unless the buffer is full.
     *
     * @return whether it was buffered
     */
    boolean offer(FeedEvent event) {
        if (closed || buffered.get() >= capacity) {
            return false;
        }
        buffer.add(event);
        buffered.incrementAndGet();
        cursor = event.seq();
        return true;
    }

    /** Starts the sender unless it runs: it writes what the buffer holds. */
    void flush() {
        if (!buffer.isEmpty() && sending.compareAndSet(false, true)) {
            try {
                executor.execute(this::send);
            } catch (RejectedExecutionException e) {
                sending.set(false);
                close("the executor refused its sender");
            }
        }
    }

    /**
     * Returns whether the client has stalled: its buffer has been full, with nothing written, for
     * at least {@code patience} nanoseconds. Called by the hub's tick.
     */
    boolean stalled(long now, long patience) {
        if (free() > 0 || sentWhenFull != sent.get()) {
            sentWhenFull = free() > 0 ? -1 : sent.get();
            fullSince = now;
            return false;
        }
        return now - fullSince >= patience;
    }

    /**
     * Ends the stream: the client reconnects with its last event id. Idempotent. The sink is closed
     * on the executor, never on the caller's thread: on WildFly, closing a sink whose write is
     * blocked (a client that stopped reading) waits for that write, and the hub's tick must not.
     */
    void close(String reason) {
        if (closed) {
            return;
        }
        closed = true;
        buffer.clear();
        LOG.log(Level.DEBUG, "Feed client of channel {0} disconnected: {1}", channel, reason);
        try {
            executor.execute(this::closeSink);
        } catch (RejectedExecutionException e) {
            closeSink();
        }
    }

    private void closeSink() {
        try {
            sink.close();
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "Could not close a feed client's stream", e);
        }
    }

    private void send() {
        try {
            FeedEvent event;
            while (!closed && (event = buffer.poll()) != null) {
                // One write at a time: a client that does not read blocks this sender, not the others.
                sink.send(toSse(event)).toCompletableFuture().get();
                buffered.decrementAndGet();
                sent.incrementAndGet();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close("interrupted");
        } catch (ExecutionException | RuntimeException e) {
            close("a write failed: " + e);
        } finally {
            sending.set(false);
        }
        if (closed) {
            return;
        }
        if (!buffer.isEmpty()) {
            flush();
        } else {
            onDrained.run();
        }
    }

    private OutboundSseEvent toSse(FeedEvent event) {
        return sse.newEventBuilder().id(Long.toString(event.seq())).name(event.messageType()).data(event.payload())
                .build();
    }
}
