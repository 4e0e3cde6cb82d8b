package org.eeoutbox.demo;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.eeoutbox.testkit.SseStream;
import org.eeoutbox.testkit.SseStream.Event;

/**
 * The clients of {@code ./demo --feed-clients N}: N Server-Sent Events connections to the order
 * feed, each read on a thread of its own from the channel's first event. Every client must
 * receive every order once, in cursor order (1, 2, 3, ...); each arrival goes to a {@link Tally}
 * under the key {@code <client>:<cursor>}, so its figures count each client's copy once and its
 * latency percentiles run over all clients' arrivals (publish, inside the order's transaction, to
 * arrival at a client). Thread-safe.
 */
final class FeedFollowers implements AutoCloseable {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);

    private final Tally tally;
    private final List<Follower> followers = new ArrayList<>();
    private final AtomicLong lastArrivalNanos = new AtomicLong();

    /**
     * Connects {@code count} clients to {@code feed} (the channel's URL) and starts reading.
     *
     * @throws DemoException if a client is refused or not answered within 30 s
     */
    static FeedFollowers connect(URI feed, int count, Tally tally) throws DemoException, InterruptedException {
        FeedFollowers all = new FeedFollowers(tally);
        URI fromTheStart = URI.create(feed + "?after=0");
        try {
            for (int i = 0; i < count; i++) {
                all.followers.add(all.new Follower(i, SseStream.open(fromTheStart, Map.of())));
            }
            for (Follower follower : all.followers) {
                follower.awaitConnected();
            }
        } catch (DemoException | InterruptedException | RuntimeException e) {
            all.close();
            throw e;
        }
        all.followers.forEach(Follower::start);
        return all;
    }

    private FeedFollowers(Tally tally) {
        this.tally = tally;
    }

    /** Returns whether every client has received {@code events} events. */
    boolean allReceived(int events) {
        return followers.stream().allMatch(follower -> follower.received.get() >= events);
    }

    /** Returns the fewest events one client has received. */
    private long fewestReceived() {
        return followers.stream().mapToLong(follower -> follower.received.get()).min().orElse(0);
    }

    /**
     * What the clients received so far.
     *
     * @param sinceNanos when publishing started ({@link System#nanoTime()}): the fan-out rate runs
     *                   from there to the last arrival
     */
    Outcome outcome(long sinceNanos) {
        long received = followers.stream().mapToLong(follower -> follower.received.get()).sum();
        long outOfOrder = followers.stream().filter(follower -> follower.firstDisorder != null).count();
        String firstDisorder = followers.stream().map(follower -> follower.firstDisorder).filter(Objects::nonNull)
                .findFirst().orElse(null);
        double seconds = Math.max(lastArrivalNanos.get() - sinceNanos, 1_000_000) / 1e9;
        return new Outcome(followers.size(), received, fewestReceived(), outOfOrder, firstDisorder,
                received / seconds);
    }

    /**
     * What the clients received.
     *
     * @param clients       the clients
     * @param received      events received by all clients together, each client's copy counted
     * @param fewest        the fewest events one client received
     * @param outOfOrder    clients that received an event out of cursor order (a gap or a repeat)
     * @param firstDisorder the first such event, or {@code null}
     * @param perSecond     events received per second by all clients together, from the start of
     *                      publishing to the last arrival
     */
    record Outcome(int clients, long received, long fewest, long outOfOrder, String firstDisorder, double perSecond) {

        /** Whether every client received {@code events} events, in order. */
        boolean complete(int events) {
            return fewest == events && received == (long) events * clients && outOfOrder == 0;
        }
    }

    /** Closes every connection. */
    @Override
    public void close() {
        followers.forEach(Follower::close);
    }

    /** One client: its stream, and a thread moving its events into the tally. */
    private final class Follower {

        private final int index;
        private final SseStream stream;
        private final Thread reader;
        private final AtomicLong received = new AtomicLong();
        private volatile String firstDisorder;
        private volatile boolean closed;

        Follower(int index, SseStream stream) {
            this.index = index;
            this.stream = stream;
            this.reader = new Thread(this::read, "demo-feed-client-" + index);
            reader.setDaemon(true);
        }

        void awaitConnected() throws DemoException, InterruptedException {
            int status;
            try {
                status = stream.status(CONNECT_TIMEOUT);
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                throw new DemoException("feed client " + index + " could not connect: " + e);
            }
            if (status != 200) {
                throw new DemoException("feed client " + index + " got HTTP " + status + ": " + stream.errorBody());
            }
        }

        void start() {
            reader.start();
        }

        private void read() {
            long expected = 1;
            try {
                while (!closed) {
                    for (Event event : stream.take(256, Duration.ofMillis(100))) {
                        long cursor = Long.parseLong(event.id());
                        if (cursor != expected && firstDisorder == null) {
                            firstDisorder = "client " + index + " expected event " + expected + ", got " + cursor;
                        }
                        expected = cursor + 1;
                        tally.record(index + ":" + cursor, event.data(), event.receivedAt());
                        received.incrementAndGet();
                        lastArrivalNanos.accumulateAndGet(System.nanoTime(), Math::max);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void close() {
            closed = true;
            stream.close();
            reader.interrupt();
        }
    }
}
