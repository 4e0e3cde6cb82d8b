package org.eeoutbox.reliability;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Client threads that publish {@code stepsPerKey} steps of each of {@code keys} orders through the
 * example's {@code POST /orders/{id}/steps/{step}}, in a random interleaving of the keys (a
 * shuffled list of all steps, taken by the threads in turn), each request to a randomly chosen
 * instance, so that one key's steps commit on different instances concurrently. A failed request
 * (an instance killed or restarting) is retried on another random instance after a short pause:
 * its step may have committed anyway, so the outbox table, not this client, says what was
 * published.
 */
final class KeyedStepClients {

    private static final long RETRY_PAUSE_MILLIS = 100;

    private final List<String> baseUrls;
    private final List<String> steps = new ArrayList<>();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicReference<String> firstFailure = new AtomicReference<>();
    private final List<Thread> threads = new ArrayList<>();

    /**
     * Prepares the steps (order ids {@code keyed-0} … and steps {@code step-1} …, shuffled with
     * {@code seed}); nothing is sent before {@link #start}.
     */
    KeyedStepClients(List<String> baseUrls, int keys, int stepsPerKey, long seed) {
        this.baseUrls = List.copyOf(baseUrls);
        for (int step = 1; step <= stepsPerKey; step++) {
            for (int key = 0; key < keys; key++) {
                steps.add("keyed-" + key + "/steps/step-" + step);
            }
        }
        Collections.shuffle(steps, new Random(seed));
    }

    /** Starts {@code threadCount} client threads. */
    void start(int threadCount) {
        for (int i = 0; i < threadCount; i++) {
            Thread thread = new Thread(this::run, "keyed-step-client-" + (i + 1));
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    /** Returns how many steps the service accepted so far (202). */
    int accepted() {
        return accepted.get();
    }

    /** Returns how many steps there are in all. */
    int total() {
        return steps.size();
    }

    /** Returns whether every client thread has finished. */
    boolean done() {
        return threads.stream().noneMatch(Thread::isAlive);
    }

    /** Waits until every step was accepted. */
    void join() throws InterruptedException {
        for (Thread thread : threads) {
            thread.join();
        }
    }

    /** Returns how many requests failed and were retried. */
    int failed() {
        return failed.get();
    }

    /** Returns the first failure's description, or {@code null}. */
    String firstFailure() {
        return firstFailure.get();
    }

    private void run() {
        try {
            for (int i = next.getAndIncrement(); i < steps.size(); i = next.getAndIncrement()) {
                while (!publish(steps.get(i))) {
                    TimeUnit.MILLISECONDS.sleep(RETRY_PAUSE_MILLIS);
                }
                accepted.incrementAndGet();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean publish(String step) throws InterruptedException {
        String baseUrl = baseUrls.get(ThreadLocalRandom.current().nextInt(baseUrls.size()));
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/orders/" + step))
                .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.noBody()).build();
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 202) {
                return true;
            }
            fail(baseUrl + ": HTTP " + response.statusCode() + ": " + response.body());
        } catch (IOException e) {
            fail(baseUrl + ": " + e);
        }
        return false;
    }

    private void fail(String description) {
        failed.incrementAndGet();
        firstFailure.compareAndSet(null, description.length() > 500 ? description.substring(0, 500) : description);
    }
}
