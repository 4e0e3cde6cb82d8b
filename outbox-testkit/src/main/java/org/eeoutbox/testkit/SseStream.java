package org.eeoutbox.testkit;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A Server-Sent Events client for tests and drivers (JDK HttpClient, HTTP/1.1): opens the stream
 * on a thread of its own and queues each event, stamped with its arrival time, as it is parsed;
 * {@link #close()} ends the connection from the client's side. Thread-safe.
 */
public final class SseStream implements AutoCloseable {

    /** One event: its {@code id}, {@code event} name and {@code data}, and when its last line was read. */
    public record Event(String id, String name, String data, Instant receivedAt) {
    }

    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final CompletableFuture<HttpResponse<Stream<String>>> response = new CompletableFuture<>();
    private final StringBuilder errorBody = new StringBuilder();
    private final Thread reader;

    private SseStream(URI uri, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).header("Accept", "text/event-stream").GET();
        headers.forEach(request::header);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        reader = new Thread(() -> read(client, request.build()), "sse " + uri.getPath());
        reader.setDaemon(true);
        reader.start();
    }

    /** Opens {@code uri} with extra request headers ({@code Last-Event-ID}). */
    public static SseStream open(URI uri, Map<String, String> headers) {
        return new SseStream(uri, headers);
    }

    /** Returns the response's status, waiting for the headers up to {@code patience}. */
    public int status(Duration patience) throws Exception {
        return response.get(patience.toMillis(), TimeUnit.MILLISECONDS).statusCode();
    }

    /** Returns the body of a response that is not a stream (an error), once read. */
    public String errorBody() throws InterruptedException {
        reader.join(10_000);
        synchronized (errorBody) {
            return errorBody.toString();
        }
    }

    /**
     * Returns the next {@code count} events, waiting up to {@code patience} in all; fewer if they do
     * not come in time.
     */
    public List<Event> take(int count, Duration patience) throws InterruptedException {
        List<Event> taken = new ArrayList<>(count);
        long deadline = System.nanoTime() + patience.toNanos();
        while (taken.size() < count) {
            Event event = events.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (event == null) {
                break;
            }
            taken.add(event);
        }
        return taken;
    }

    @Override
    public void close() {
        response.thenAccept(r -> r.body().close());
        reader.interrupt();
    }

    private void read(HttpClient client, HttpRequest request) {
        try {
            HttpResponse<Stream<String>> answer = client.send(request, HttpResponse.BodyHandlers.ofLines());
            response.complete(answer);
            String id = null;
            String name = null;
            StringBuilder data = null;
            for (String line : (Iterable<String>) answer.body()::iterator) {
                if (answer.statusCode() != 200) {
                    synchronized (errorBody) {
                        errorBody.append(line).append('\n');
                    }
                } else if (line.isEmpty()) {
                    if (data != null) {
                        events.add(new Event(id, name, data.toString(), Instant.now()));
                    }
                    id = null;
                    name = null;
                    data = null;
                } else if (line.startsWith("id:")) {
                    id = value(line);
                } else if (line.startsWith("event:")) {
                    name = value(line);
                } else if (line.startsWith("data:")) {
                    data = data == null ? new StringBuilder(value(line)) : data.append('\n').append(value(line));
                }
            }
        } catch (Exception e) {
            response.completeExceptionally(e);
        }
    }

    private static String value(String line) {
        String value = line.substring(line.indexOf(':') + 1);
        return value.startsWith(" ") ? value.substring(1) : value;
    }
}
