package org.eeoutbox.demo;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonReader;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The shop's clients: threads that place {@code count} orders through {@code POST /orders}, as
 * fast as the service answers, and remember the id of every order it created. A failed request
 * is counted, not retried (a POST is not idempotent).
 */
final class OrderClients {

    private final URI orders;
    private final int count;
    private final HttpClient client;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicReference<String> firstFailure = new AtomicReference<>();
    private final Set<String> placed = ConcurrentHashMap.newKeySet();
    private final List<Thread> threads = new ArrayList<>();

    OrderClients(String baseUrl, int count) {
        this.orders = URI.create(baseUrl + "/orders");
        this.count = count;
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** Starts {@code threads} client threads. */
    void start(int threadCount) {
        for (int i = 0; i < threadCount; i++) {
            Thread thread = new Thread(this::run, "order-client-" + (i + 1));
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    /** Waits until every order was sent. */
    void join() throws InterruptedException {
        for (Thread thread : threads) {
            thread.join();
        }
    }

    /** Returns whether every client thread has finished. */
    boolean done() {
        return threads.stream().noneMatch(Thread::isAlive);
    }

    /** Returns the ids of the orders the service created so far. */
    Set<String> placed() {
        return placed;
    }

    /** Returns how many requests failed. */
    int failed() {
        return failed.get();
    }

    /** Returns the first failure's description, or {@code null}. */
    String firstFailure() {
        return firstFailure.get();
    }

    private void run() {
        for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
            String body = String.format(Locale.ROOT, "{\"customer\":\"customer-%d\",\"amount\":%s}", i % 97,
                    BigDecimal.valueOf(500 + (i * 7919L) % 99_500, 2).toPlainString());
            HttpRequest request = HttpRequest.newBuilder(orders).timeout(Duration.ofSeconds(60))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build();
            try {
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 201) {
                    fail("HTTP " + response.statusCode() + ": " + response.body());
                    continue;
                }
                try (JsonReader reader = Json.createReader(new StringReader(response.body()))) {
                    placed.add(reader.readObject().getString("id"));
                }
            } catch (IOException | JsonException | ClassCastException | NullPointerException e) {
                fail(e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void fail(String description) {
        failed.incrementAndGet();
        firstFailure.compareAndSet(null, description.length() > 500 ? description.substring(0, 500) : description);
    }
}
