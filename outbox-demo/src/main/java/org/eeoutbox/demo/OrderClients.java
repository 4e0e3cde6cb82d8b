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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The shop's clients: threads that place {@code count} orders through {@code POST /orders}, as
 * fast as the service answers or at a fixed pace ({@link #paced}), and remember the id of every
 * order it created. A failed request is counted; it is not retried (a POST is not idempotent)
 * unless the clients were made with {@link #untilPlaced}.
 */
public final class OrderClients {

    private static final long RETRY_PAUSE_MILLIS = 200;

    private final URI orders;
    private final int count;
    private final HttpClient client;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicReference<String> firstFailure = new AtomicReference<>();
    private final Set<String> placed = ConcurrentHashMap.newKeySet();
    private final List<Thread> threads = new ArrayList<>();
    private final boolean retry;
    private final long intervalNanos;
    private final int warmUp;
    private final AtomicReference<Instant> measuredFrom = new AtomicReference<>();
    private long startNanos; // written before the threads start

    /** Clients that send {@code count} orders, each once. */
    public OrderClients(String baseUrl, int count) {
        this(baseUrl, count, false, 0, 0);
    }

    private OrderClients(String baseUrl, int count, boolean retry, long intervalNanos, int warmUp) {
        this.orders = URI.create(baseUrl + "/orders");
        this.count = count;
        this.retry = retry;
        this.intervalNanos = intervalNanos;
        this.warmUp = warmUp;
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    /**
     * Clients that go on until the service created {@code count} orders: a failed request (the
     * service is down, restarting, or failed) is counted and followed, after a short pause, by a
     * new order in its place. A request whose answer was lost may still have created its order,
     * so the service may hold more orders than {@link #placed()}.
     */
    public static OrderClients untilPlaced(String baseUrl, int count) {
        return new OrderClients(baseUrl, count, true, 0, 0);
    }

    /**
     * Clients that send {@code count} orders, each once, at a fixed offered rate: order <i>i</i>
     * is due {@code i / perSecond} seconds after {@link #start}, whatever the answers to earlier
     * ones (a late order is sent at once); {@code perSecond} 0 sends as fast as the service
     * answers. The rate is reached only with enough threads: each waits for its answer.
     * {@link #measuredFrom()} tells when the first order after the {@code warmUp} ones was sent.
     *
     * @throws IllegalArgumentException if {@code perSecond} or {@code warmUp} is negative
     */
    public static OrderClients paced(String baseUrl, int count, int perSecond, int warmUp) {
        if (perSecond < 0 || warmUp < 0) {
            throw new IllegalArgumentException("perSecond and warmUp must not be negative, got: " + perSecond + ", "
                    + warmUp);
        }
        return new OrderClients(baseUrl, count, false, perSecond == 0 ? 0 : 1_000_000_000L / perSecond, warmUp);
    }

    /** Starts {@code threads} client threads. */
    public void start(int threadCount) {
        startNanos = System.nanoTime();
        for (int i = 0; i < threadCount; i++) {
            Thread thread = new Thread(this::run, "order-client-" + (i + 1));
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    /** Waits until every order was sent. */
    public void join() throws InterruptedException {
        for (Thread thread : threads) {
            thread.join();
        }
    }

    /** Returns whether every client thread has finished. */
    public boolean done() {
        return threads.stream().noneMatch(Thread::isAlive);
    }

    /** Returns the ids of the orders the service created so far. */
    public Set<String> placed() {
        return placed;
    }

    /**
     * Returns when the first order after the warm-up was about to be sent, or {@link Instant#EPOCH}
     * before that (so that every order counts).
     */
    public Instant measuredFrom() {
        Instant from = measuredFrom.get();
        return from == null ? Instant.EPOCH : from;
    }

    /** Returns how many requests failed. */
    public int failed() {
        return failed.get();
    }

    /** Returns the first failure's description, or {@code null}. */
    public String firstFailure() {
        return firstFailure.get();
    }

    private void run() {
        for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
            String customer = "customer-" + i % 97;
            BigDecimal amount = BigDecimal.valueOf(500 + (i * 7919L) % 99_500, 2);
            try {
                long wait = startNanos + i * intervalNanos - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                if (i == warmUp) {
                    measuredFrom.set(Instant.now());
                }
                while (place(customer, amount) == null && retry) {
                    TimeUnit.MILLISECONDS.sleep(RETRY_PAUSE_MILLIS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Places one order and returns its id, also remembered in {@link #placed()}; returns
     * {@code null} if the request failed (counted in {@link #failed()}).
     */
    public String place(String customer, BigDecimal amount) throws InterruptedException {
        String body = String.format(Locale.ROOT, "{\"customer\":\"%s\",\"amount\":%s}", customer,
                amount.toPlainString());
        HttpRequest request = HttpRequest.newBuilder(orders).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 201) {
                fail("HTTP " + response.statusCode() + ": " + response.body());
                return null;
            }
            try (JsonReader reader = Json.createReader(new StringReader(response.body()))) {
                String id = reader.readObject().getString("id");
                placed.add(id);
                return id;
            }
        } catch (IOException | JsonException | ClassCastException | NullPointerException e) {
            fail(e.toString());
            return null;
        }
    }

    private void fail(String description) {
        failed.incrementAndGet();
        firstFailure.compareAndSet(null, description.length() > 500 ? description.substring(0, 500) : description);
    }
}
