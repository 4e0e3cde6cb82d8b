package org.eeoutbox.feed.sse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import org.eeoutbox.spi.FeedEvent;
import org.junit.jupiter.api.Test;

/** One client's buffer and sender, against a recording sink: bounded, in order, cut off when stalled. */
class FeedClientTest {

    private static final long SECOND = 1_000_000_000L;

    /** A sink that records what it is sent, or fails every write (a client that went away). */
    private static final class RecordingSink implements SseEventSink {
        final List<String> sent = new ArrayList<>();
        boolean failing;
        boolean closed;

        @Override
        public boolean isClosed() {
            return closed;
        }

        @Override
        public CompletionStage<?> send(OutboundSseEvent event) {
            if (failing) {
                return CompletableFuture.failedFuture(new java.io.IOException("connection reset"));
            }
            sent.add(event.getId() + "/" + event.getName() + "/" + event.getData());
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private final RecordingSink sink = new RecordingSink();
    private final AtomicInteger drained = new AtomicInteger();
    private final List<Runnable> tasks = new ArrayList<>();

    @Test
    void theBufferTakesUpToItsCapacityAndTheCursorFollowsWhatItTook() {
        FeedClient client = client(2);

        assertTrue(client.offer(event(11)));
        assertTrue(client.offer(event(12)));
        assertFalse(client.offer(event(13)));

        assertEquals(12, client.cursor());
        assertEquals(0, client.free());
    }

    @Test
    void theSenderWritesInCursorOrderWithIdNameAndDataThenAsksForMore() {
        FeedClient client = client(10);
        client.offer(event(1));
        client.offer(event(2));

        client.flush();
        runTasks();

        assertEquals(List.of("1/tick/{\"n\":1}", "2/tick/{\"n\":2}"), sink.sent);
        assertEquals(10, client.free());
        assertEquals(1, drained.get());
    }

    @Test
    void aClientFullWithNothingWrittenForThePatienceIsStalledAndProgressResetsIt() {
        FeedClient client = client(1);
        client.offer(event(1));

        assertFalse(client.stalled(0, SECOND), "first seen full");
        assertFalse(client.stalled(SECOND / 2, SECOND));
        assertTrue(client.stalled(SECOND, SECOND), "full and silent for the patience");

        client.flush();
        runTasks();
        assertFalse(client.stalled(2 * SECOND, SECOND), "written since: not stalled");
    }

    @Test
    void aWriteThatFailsClosesTheClient() {
        FeedClient client = client(5);
        sink.failing = true;
        client.offer(event(1));

        client.flush();
        runTasks();

        assertTrue(sink.closed);
        assertTrue(client.isClosed());
        assertFalse(client.offer(event(2)), "a closed client takes nothing");
        assertEquals(0, drained.get());
    }

    private FeedClient client(int capacity) {
        return new FeedClient("news", sink, sse(), 0, capacity, tasks::add, drained::incrementAndGet);
    }

    private void runTasks() {
        while (!tasks.isEmpty()) {
            tasks.remove(0).run();
        }
    }

    private static FeedEvent event(long seq) {
        return new FeedEvent(seq, new UUID(0, seq), "tick", "{\"n\":" + seq + "}");
    }

    /** An Sse whose builder keeps id, name and data: all the feed sets. */
    private static Sse sse() {
        return (Sse) Proxy.newProxyInstance(FeedClientTest.class.getClassLoader(), new Class<?>[] {Sse.class},
                (proxy, method, args) -> {
                    if (!method.getName().equals("newEventBuilder")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    Map<String, Object> fields = new HashMap<>();
                    return Proxy.newProxyInstance(FeedClientTest.class.getClassLoader(),
                            new Class<?>[] {OutboundSseEvent.Builder.class}, (builder, call, values) -> {
                                if (call.getName().equals("build")) {
                                    return Proxy.newProxyInstance(FeedClientTest.class.getClassLoader(),
                                            new Class<?>[] {OutboundSseEvent.class}, (event, get, none) -> switch (
                                                    get.getName()) {
                                                case "getId" -> fields.get("id");
                                                case "getName" -> fields.get("name");
                                                case "getData" -> fields.get("data");
                                                default -> throw new UnsupportedOperationException(get.getName());
                                            });
                                }
                                fields.put(call.getName(), values[values.length - 1]);
                                return builder;
                            });
                });
    }
}
