package org.eeoutbox.it.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.eeoutbox.it.app.FeedEvents;
import org.eeoutbox.it.app.OpenChannels;
import org.eeoutbox.it.app.TestApps;
import org.eeoutbox.it.support.Deployments;
import org.eeoutbox.it.support.DirectPublisher;
import org.eeoutbox.it.support.ItEnvironment;
import org.eeoutbox.it.support.ServerLog;
import org.eeoutbox.testkit.SseStream;
import org.eeoutbox.testkit.SseStream.Event;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The feed over Server-Sent Events (outbox-feed-sse, docs/feed.md) on the real server, from
 * outside: events published in the application's transactions reach a client in commit order, and
 * so do those another instance commits to the same database (the test JVM's
 * {@link DirectPublisher}), interleaved with this one's; a
 * client that reconnects with {@code Last-Event-ID} gets exactly the rest; a purged cursor gets
 * 410; a channel the application's {@link OpenChannels} refuses gets 403; a client that stops
 * reading does not hold up another, and is cut off by the hub where the server lets a write block
 * ({@code it.server.feed-cuts-off-slow-clients}).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class FeedIT {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @Deployment
    static WebArchive deployment() {
        WebArchive war = TestApps.war("feed", Map.of("outbox.feed.sse.enabled", "true",
                "outbox.feed.sse.poll-interval", "200ms", "outbox.feed.sse.client-buffer", "32"))
                .addClasses(FeedEvents.class, FeedEvents.Batches.class, OpenChannels.class);
        return Deployments.addLibrariesOf(war, "org.eeoutbox.feed.sse.FeedDelivery");
    }

    @ArquillianResource
    URL base;

    @Test
    void aThousandEventsPublishedWhileConnectedArriveInCommitOrder() throws Exception {
        String channel = channel();
        try (SseStream stream = SseStream.open(feed(channel, "?after=0"), Map.of())) {
            publish(channel, 0, 1000, 10, 0);

            List<Event> events = stream.take(1000, PATIENCE);

            assertEquals(200, stream.status(PATIENCE));
            assertEquals(1000, events.size(), "events received");
            for (int i = 0; i < 1000; i++) {
                Event event = events.get(i);
                assertEquals(Integer.toString(i + 1), event.id(), "the cursor of event " + i);
                assertEquals("tick", event.name());
                assertTrue(event.data().startsWith("{\"i\":" + i + ","), event.data());
            }
            assertEquals(List.of(), stream.take(1, Duration.ofSeconds(1)), "nothing more");
        }
    }

    @Test
    void aClientThatReconnectsWithLastEventIdReceivesExactlyTheRest() throws Exception {
        String channel = channel();
        publish(channel, 0, 1000, 50, 0);
        String last;
        try (SseStream first = SseStream.open(feed(channel, "?after=0"), Map.of())) {
            List<Event> events = first.take(400, PATIENCE);
            assertEquals(400, events.size());
            last = events.get(399).id();
            assertEquals("400", last);
        }
        publish(channel, 1000, 100, 10, 0);

        try (SseStream second = SseStream.open(feed(channel, ""), Map.of("Last-Event-ID", last))) {
            List<Event> rest = second.take(700, PATIENCE);

            assertEquals(IntStream.rangeClosed(401, 1100).mapToObj(Integer::toString).toList(),
                    rest.stream().map(Event::id).toList(), "exactly the events after 400, in order");
            assertTrue(rest.get(0).data().startsWith("{\"i\":400,"), rest.get(0).data());
            assertEquals(List.of(), second.take(1, Duration.ofSeconds(1)), "no duplicate after the rest");
        }
    }

    @Test
    void eventsAnotherInstanceCommitsReachAClientOfThisOneInterleavedInCommitOrder() throws Exception {
        String channel = channel();
        try (SseStream stream = SseStream.open(feed(channel, "?after=0"), Map.of())) {
            publish(channel, 0, 100, 10, 0);
            assertEquals(100, stream.take(100, PATIENCE).size(), "the events published here");

            // Another instance on the same database: nothing of this one sees the commit, so only
            // the hub's poll (every 200 ms here) can bring these events.
            for (int from = 100; from < 300; from += 20) {
                DirectPublisher.publishToFeed(channel, from, 20);
            }
            List<Event> fromElsewhere = stream.take(200, Duration.ofSeconds(10));
            publish(channel, 300, 100, 10, 0);
            List<Event> after = stream.take(100, PATIENCE);

            assertEquals(IntStream.rangeClosed(101, 300).mapToObj(Integer::toString).toList(),
                    fromElsewhere.stream().map(Event::id).toList(), "the other instance's events, within 10 s");
            assertEquals(IntStream.rangeClosed(301, 400).mapToObj(Integer::toString).toList(),
                    after.stream().map(Event::id).toList(), "then this instance's again");
            for (Event event : fromElsewhere) {
                int i = Integer.parseInt(event.id()) - 1;
                assertTrue(event.data().startsWith("{\"i\":" + i + ","), event.data());
            }
            assertEquals(List.of(), stream.take(1, Duration.ofSeconds(1)), "nothing more");
        }
    }

    @Test
    void aCursorWhoseNextEventsArePurgedGetsGoneAndALaterOneResumes() throws Exception {
        String channel = channel();
        publish(channel, 0, 5, 1, 0);
        // What the purger does once outbox.feed.retention has passed (the purge itself is tested on each database).
        ItEnvironment.database().execute("DELETE FROM outbox WHERE ordering_key = '" + channel
                + "' AND ordering_seq <= 2");

        try (SseStream expired = SseStream.open(feed(channel, ""), Map.of("Last-Event-ID", "1"))) {
            assertEquals(410, expired.status(PATIENCE));
            assertTrue(expired.errorBody().contains("no longer kept"), expired.errorBody());
        }
        try (SseStream resumed = SseStream.open(feed(channel, "?after=2"), Map.of())) {
            assertEquals(List.of("3", "4", "5"), resumed.take(3, PATIENCE).stream().map(Event::id).toList());
            assertEquals(200, resumed.status(PATIENCE));
        }
    }

    @Test
    void aChannelTheApplicationRefusesAndAnInvalidCursorAreRefusedBeforeStreaming() throws Exception {
        try (SseStream refused = SseStream.open(feed("secret-" + UUID.randomUUID(), "?after=0"), Map.of())) {
            assertEquals(403, refused.status(PATIENCE));
        }
        try (SseStream bad = SseStream.open(feed(channel(), "?after=-3"), Map.of())) {
            assertEquals(400, bad.status(PATIENCE));
        }
    }

    @Test
    void aClientThatStopsReadingDoesNotHoldUpAnother() throws Exception {
        fastClientKeepsUpBesideANonReadingOne();
    }

    @Test
    void aClientThatStopsReadingIsCutOffByTheHub() throws Exception {
        assumeTrue(Boolean.getBoolean("it.server.feed-cuts-off-slow-clients"),
                "this server's writes to a non-reading client never block, so the hub never finds it slow");
        ServerLog log = ServerLog.current();
        long mark = log.mark();

        String channel = fastClientKeepsUpBesideANonReadingOne();

        // The hub stops serving it and drops its buffer. Its connection is not observed: WildFly and
        // Liberty keep it open while the write that blocked is pending (docs/feed.md#limits).
        log.awaitAfter(mark, "Disconnected a client of feed channel " + channel, PATIENCE);
    }

    /**
     * Connects a client that never reads (a small receive window) and one that reads, publishes
     * 3,000 events of 8 KB to a new channel and checks the reading one gets them all.
     *
     * @return the channel
     */
    private String fastClientKeepsUpBesideANonReadingOne() throws Exception {
        String channel = channel();
        int count = 3000;
        URI uri = feed(channel, "?after=0");
        try (Socket slow = new Socket(); SseStream fast = SseStream.open(uri, Map.of())) {
            slow.setReceiveBufferSize(4096);
            slow.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 10_000);
            OutputStream out = slow.getOutputStream();
            String request = "GET " + uri.getRawPath() + "?" + uri.getRawQuery() + " HTTP/1.1\r\nHost: "
                    + uri.getHost() + ":" + uri.getPort() + "\r\nAccept: text/event-stream\r\n\r\n";
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();

            publish(channel, 0, count, 100, 8000);

            List<Event> events = fast.take(count, PATIENCE.multipliedBy(2));
            assertEquals(count, events.size(), "the reading client kept up");
            assertEquals(Integer.toString(count), events.get(count - 1).id());
        }
        return channel;
    }

    private static String channel() {
        return "open-" + UUID.randomUUID();
    }

    private URI feed(String channel, String query) {
        return URI.create(base + "api/feeds/" + channel + query);
    }

    private void publish(String channel, int from, int count, int batch, int pad) throws Exception {
        URI uri = URI.create(base + "api/feed-events?channel=" + channel + "&from=" + from + "&count=" + count
                + "&batch=" + batch + "&pad=" + pad);
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri)
                .POST(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofMinutes(3)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
    }
}
