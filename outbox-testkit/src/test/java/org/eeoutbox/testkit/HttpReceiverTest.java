package org.eeoutbox.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class HttpReceiverTest {

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void byDefaultEveryRequestIsAnswered200AndRecordedWithMethodTargetHeadersAndBody() throws Exception {
        try (HttpReceiver receiver = HttpReceiver.builder().start()) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(receiver.url("/a/b?x=1")))
                    .header("X-Outbox-Id", "id-1").header("X-Many", "1").header("X-Many", "2")
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"ä\":1}")).build(), HttpResponse.BodyHandlers.ofString());

            assertEquals(200, response.statusCode());
            assertEquals("", response.body());
            ReceivedRequest request = receiver.next();
            assertEquals("PUT", request.method());
            assertEquals("/a/b", request.path());
            assertEquals("/a/b?x=1", request.target());
            assertEquals("id-1", request.outboxId());
            assertEquals(List.of("1", "2"), request.headers("x-many"));
            assertEquals("{\"ä\":1}", request.body());
            assertEquals(200, request.status());
            assertEquals(0, receiver.pending());
            assertEquals(List.of(request), receiver.requests());
            assertEquals(1, receiver.received());
            assertEquals(1, receiver.accepted());
        }
    }

    @Test
    void downBeatsRoutesAndScriptsAndAScriptBeatsTheResponder() throws Exception {
        try (HttpReceiver receiver = HttpReceiver.builder().respondWith(request -> 202)
                .route("/routed", HttpReceiver.answer(201, "made", "X-Answer", "yes")).start()) {
            receiver.respond("/scripted", 404);

            assertEquals(201, post(receiver, "/routed/below"));
            assertEquals(404, post(receiver, "/scripted"));
            assertEquals(202, post(receiver, "/scripted/below"));
            receiver.down(true);
            assertEquals(503, post(receiver, "/routed"));
            assertEquals(503, post(receiver, "/other"));

            assertEquals(List.of(ReceivedRequest.ROUTED, 404, 202, 503, 503),
                    receiver.requests().stream().map(ReceivedRequest::status).toList());
            assertEquals(1, receiver.accepted());
            receiver.reset();
            assertEquals(List.of(), receiver.requests());
            assertEquals(202, post(receiver, "/scripted"));
            assertEquals(201, post(receiver, "/routed"));
        }
    }

    @Test
    void theAcceptedListenerHearsOf2xxAnswersOnlyBeforeTheyAreSent() throws Exception {
        List<String> accepted = new CopyOnWriteArrayList<>();
        try (HttpReceiver receiver = HttpReceiver.builder().recording(false)
                .respondWith(request -> request.body().equals("ok") ? 204 : 400)
                .onAccepted(request -> accepted.add(request.body() + " " + request.status())).start()) {
            assertEquals(204, post(receiver, "/", "ok"));
            assertEquals(400, post(receiver, "/", "bad"));

            assertEquals(List.of("ok 204"), accepted);
            assertEquals(2, receiver.received());
            assertEquals(1, receiver.accepted());
            assertThrows(IllegalStateException.class, receiver::requests);
        }
    }

    @Test
    void aStoppedReceiverRefusesConnectionsAndListensAgainOnTheSamePort() throws Exception {
        try (HttpReceiver receiver = HttpReceiver.builder().start()) {
            int port = receiver.port();
            receiver.stop();
            assertFalse(receiver.isListening());
            assertThrows(ConnectException.class, () -> post(receiver, "/"));

            receiver.start();
            assertTrue(receiver.isListening());
            assertEquals(port, receiver.port());
            assertEquals(200, post(receiver, "/"));
        }
    }

    @Test
    void latencyDelaysTheAnswer() throws Exception {
        try (HttpReceiver receiver = HttpReceiver.builder().latency(Duration.ofMillis(300)).start()) {
            long start = System.nanoTime();
            assertEquals(200, post(receiver, "/"));
            assertTrue(System.nanoTime() - start >= Duration.ofMillis(300).toNanos());
        }
    }

    @Test
    void nextReturnsNullWhenNothingArrivesAndAwaitFailsWithWhatArrived() throws Exception {
        try (HttpReceiver receiver = HttpReceiver.builder().start()) {
            assertNull(receiver.next(Duration.ofMillis(1)));
            post(receiver, "/one");
            AssertionError failure = assertThrows(AssertionError.class,
                    () -> receiver.await("/two", 1, Duration.ofMillis(1)));
            assertTrue(failure.getMessage().contains("/one"), failure.getMessage());
            assertEquals(1, receiver.await("/one", 1, Duration.ofSeconds(5)).size());
        }
    }

    @Test
    void closeIsFinal() {
        HttpReceiver receiver = HttpReceiver.builder().start();
        receiver.close();
        receiver.close();
        assertThrows(IllegalStateException.class, receiver::start);
    }

    @Test
    void freePortsAreDistinct() {
        int[] ports = Ports.free(3);
        assertEquals(3, Set.of(ports[0], ports[1], ports[2]).size());
        assertTrue(Ports.free() > 0);
    }

    @Test
    void deleteRecursivelyRemovesATreeAndIgnoresAMissingRoot() throws IOException {
        Path tmp = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
        Path root = Files.createTempDirectory(tmp, "dirs-test-");
        Files.createDirectories(root.resolve("a/b"));
        Files.writeString(root.resolve("a/b/file"), "x");
        Files.writeString(root.resolve("top"), "y");

        Dirs.deleteRecursively(root);

        assertFalse(Files.exists(root));
        Dirs.deleteRecursively(root);
        assertTrue(Dirs.deleteRecursivelyQuietly(root));
    }

    private int post(HttpReceiver receiver, String path) throws IOException, InterruptedException {
        return post(receiver, path, "");
    }

    private int post(HttpReceiver receiver, String path, String body) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create(receiver.url(path)))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }
}
