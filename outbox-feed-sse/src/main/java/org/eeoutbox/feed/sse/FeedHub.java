package org.eeoutbox.feed.sse;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import jakarta.inject.Inject;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eeoutbox.engine.PublishCommitted;
import org.eeoutbox.spi.FeedEvent;
import org.eeoutbox.spi.FeedStore;

/**
 * The connected clients of the application's feed channels, served from the database: every
 * {@code outbox.feed.sse.poll-interval}, and at once after a transaction that published on this
 * instance commits ({@link PublishCommitted}), a tick reads, for each channel, the events after
 * its clients' cursors (one read per distinct cursor, so clients that keep up share one) and
 * buffers them per client. Everything a client receives comes from those reads by cursor, in
 * cursor order: the catch-up after a reconnect and the live events are the same reads, so there is
 * no seam to lose or repeat an event at. Events published on another instance arrive within a
 * poll interval.
 *
 * <p>A client whose buffer stays full for a poll interval with nothing written is disconnected; it
 * resumes from its last event id. Ticks never overlap; they, and the clients' senders, run on the
 * container's default managed executor. Thread-safe.
 */
@ApplicationScoped
public class FeedHub {

    private static final Logger LOG = System.getLogger(FeedHub.class.getName());

    /** The most events read for one group of clients per read. */
    static final int MAX_READ = 500;

    @Inject
    FeedStore feeds;

    @Resource
    ManagedExecutorService executor;

    @Resource
    ManagedScheduledExecutorService scheduler;

    private final Map<String, Set<FeedClient>> channels = new ConcurrentHashMap<>();
    /** Wake-ups asked for and not yet served: the classic serialized runner. */
    private final AtomicInteger pending = new AtomicInteger();
    private ScheduledFuture<?> poll;
    private volatile boolean stopped;

    /**
     * Connects a client to its channel, reading its events at once; polls from then on.
     *
     * @param cursor where the client starts: it receives the events after it
     */
    void connect(String channel, SseEventSink sink, Sse sse, long cursor, FeedSettings settings) {
        add(new FeedClient(channel, sink, sse, cursor, settings.clientBuffer(), executor, this::wake), settings);
    }

    private void add(FeedClient client, FeedSettings settings) {
        synchronized (this) {
            if (stopped) {
                client.close("the application is stopping");
                return;
            }
            if (poll == null) {
                long interval = settings.pollInterval().toNanos();
                poll = scheduler.scheduleWithFixedDelay(this::wake, interval, interval, TimeUnit.NANOSECONDS);
            }
        }
        channels.compute(client.channel(), (name, clients) -> {
            Set<FeedClient> joined = clients == null ? ConcurrentHashMap.newKeySet() : clients;
            joined.add(client);
            return joined;
        });
        wake();
    }

    /** Reads the channels at once after a local publish commits; no hub is created for it. */
    void published(@Observes(notifyObserver = Reception.IF_EXISTS) PublishCommitted event) {
        if (!channels.isEmpty()) {
            wake();
        }
    }

    /** Asks for a tick; ticks never overlap, and one asked for while another runs follows it. */
    void wake() {
        if (stopped) {
            return;
        }
        if (pending.getAndIncrement() == 0) {
            try {
                executor.execute(this::run);
            } catch (RuntimeException e) {
                pending.set(0);
                LOG.log(Level.WARNING, "Could not schedule a feed read; the next poll retries", e);
            }
        }
    }

    private void run() {
        int served;
        do {
            served = pending.get();
            try {
                tick();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Reading the feed channels failed; the next poll retries", e);
            }
        } while (pending.addAndGet(-served) != 0);
    }

    private void tick() {
        FeedSettings settings = ConfiguredFeedSettings.get();
        long now = System.nanoTime();
        long patience = settings.pollInterval().toNanos();
        for (Map.Entry<String, Set<FeedClient>> channel : channels.entrySet()) {
            Set<FeedClient> clients = channel.getValue();
            clients.removeIf(FeedClient::isClosed);
            if (clients.isEmpty()) {
                // Atomically with add(): a client joining now keeps the set.
                channels.computeIfPresent(channel.getKey(), (name, left) -> left.isEmpty() ? null : left);
                continue;
            }
            Map<Long, List<FeedClient>> byCursor = new HashMap<>();
            for (FeedClient client : clients) {
                if (client.stalled(now, patience)) {
                    LOG.log(Level.INFO, "Disconnected a client of feed channel {0} that has not read its last {1}"
                            + " events for {2}; it resumes from its last event id", channel.getKey(),
                            settings.clientBuffer(), settings.pollInterval());
                    client.close("too slow");
                } else if (client.free() > 0) {
                    byCursor.computeIfAbsent(client.cursor(), cursor -> new ArrayList<>()).add(client);
                }
            }
            for (Map.Entry<Long, List<FeedClient>> group : byCursor.entrySet()) {
                serve(channel.getKey(), group.getKey(), group.getValue());
            }
        }
    }

    /** Reads the events after {@code cursor} for the clients there, and buffers them. */
    private void serve(String channel, long cursor, List<FeedClient> clients) {
        int limit = Math.min(MAX_READ, clients.stream().mapToInt(FeedClient::free).max().orElse(1));
        List<FeedEvent> events = feeds.read(channel, cursor, limit);
        for (FeedClient client : clients) {
            for (FeedEvent event : events) {
                if (!client.offer(event)) {
                    break;
                }
            }
            client.flush();
        }
        if (events.size() == limit) {
            // More may be waiting: read again once this tick ends (the senders' drains also wake it).
            pending.incrementAndGet();
        }
    }

    /** Ends every stream: clients reconnect to another instance or after the redeployment. */
    @PreDestroy
    void stop() {
        synchronized (this) {
            stopped = true;
            if (poll != null) {
                poll.cancel(false);
            }
        }
        channels.values().forEach(clients -> clients.forEach(client -> client.close("the application stopped")));
        channels.clear();
    }
}
