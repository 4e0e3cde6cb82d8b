package org.eeoutbox.feed.sse;

import java.time.Duration;
import java.util.List;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.config.Property;

/**
 * The feed's configuration, read from the {@code outbox.feed.*} properties that
 * {@link FeedTransportProvider} declares and the runtime checks at deployment. Immutable.
 *
 * @param retention    how long a feed's events stay readable, counted from their publish
 * @param sseEnabled   whether the SSE resource serves requests
 * @param path         where it serves them, relative to the application's JAX-RS root, without
 *                     leading or trailing {@code /}
 * @param pollInterval how often the hub reads the channels that have clients
 * @param clientBuffer the events held for one client before it is cut off as too slow
 */
record FeedSettings(Duration retention, boolean sseEnabled, String path, Duration pollInterval, int clientBuffer) {

    static final Duration DEFAULT_RETENTION = Duration.ofDays(7);
    static final Duration DEFAULT_POLL_INTERVAL = Duration.ofMillis(500);
    static final int DEFAULT_CLIENT_BUFFER = 256;

    static final Property<Duration> RETENTION = Property.duration("outbox.feed.retention", DEFAULT_RETENTION,
            Duration.ofMinutes(1), Duration.ofDays(3650),
            "How long a feed's events stay readable (and a client can resume from them), counted from their "
                    + "publish; the purger deletes them afterwards, instead of after outbox.purge.retention.");
    static final Property<Boolean> SSE_ENABLED = Property.bool("outbox.feed.sse.enabled", false,
            "Serve feed channels over Server-Sent Events (outbox-feed-sse); publishing to a feed works either way.");
    static final Property<String> SSE_PATH = Property.relativePath("outbox.feed.sse.path", FeedResource.PATH,
            "Where channels are served, as <path>/<channel>, under the application's @ApplicationPath.");
    static final Property<Duration> POLL_INTERVAL = Property.duration("outbox.feed.sse.poll-interval",
            DEFAULT_POLL_INTERVAL, Duration.ofMillis(10), Duration.ofMinutes(10),
            "How often the channels that have clients are read from the database: the most an event published on "
                    + "another instance waits (one published on this instance is read at once after its commit).");
    static final Property<Integer> CLIENT_BUFFER = Property.integer("outbox.feed.sse.client-buffer",
            DEFAULT_CLIENT_BUFFER, 1, 100_000,
            "The events held for one client that the server has not yet written; a client whose buffer stays full "
                    + "for a poll interval is disconnected, and resumes from its last event id.");

    /** Every property of the feed, in the order of the configuration reference. */
    static final List<Property<?>> PROPERTIES = List.of(RETENTION, SSE_ENABLED, SSE_PATH, POLL_INTERVAL,
            CLIENT_BUFFER);

    /** The settings of a feed whose resource is off: what a configuration with problems falls back to. */
    static final FeedSettings DISABLED = new FeedSettings(DEFAULT_RETENTION, false, FeedResource.PATH,
            DEFAULT_POLL_INTERVAL, DEFAULT_CLIENT_BUFFER);

    /**
     * Reads the properties, recording each problem in {@code configuration}.
     *
     * @return the settings; {@link #DISABLED} when a problem was found
     */
    static FeedSettings read(Configuration configuration) {
        int problemsBefore = configuration.problems().size();
        Duration retention = configuration.get(RETENTION);
        boolean enabled = configuration.get(SSE_ENABLED);
        String path = configuration.get(SSE_PATH);
        Duration poll = configuration.get(POLL_INTERVAL);
        int buffer = configuration.get(CLIENT_BUFFER);
        return configuration.problems().size() == problemsBefore
                ? new FeedSettings(retention, enabled, path, poll, buffer) : DISABLED;
    }
}
