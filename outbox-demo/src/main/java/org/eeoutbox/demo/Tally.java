package org.eeoutbox.demo;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one receiver got: every arrival of an {@code order.created} message, deduplicated by its
 * {@code x-outbox-id}, with the publish-to-delivery latency of each first arrival (arrival time
 * minus the order's {@code createdAt} in the payload; the service and the receivers share the
 * machine's clock). Thread-safe.
 */
public final class Tally {

    private final Set<String> outboxIds = ConcurrentHashMap.newKeySet();
    private final Set<String> orderIds = ConcurrentHashMap.newKeySet();
    private final AtomicLong arrivals = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private final AtomicLong malformed = new AtomicLong();
    private long[] createdMicros = new long[1024]; // guarded by this: each first arrival's createdAt
    private long[] latencyMicros = new long[1024]; // guarded by this: and its latency
    private int latencyCount; // guarded by this

    /**
     * Records one arrival.
     *
     * @param outboxId the {@code x-outbox-id} header, or {@code null} if missing
     * @param payload  the message body, the order as JSON
     * @param arrival  when the receiver got it
     */
    public void record(String outboxId, String payload, Instant arrival) {
        arrivals.incrementAndGet();
        if (outboxId == null) {
            malformed.incrementAndGet();
            return;
        }
        if (!outboxIds.add(outboxId)) {
            duplicates.incrementAndGet();
            return;
        }
        String orderId;
        Instant createdAt;
        try (JsonReader reader = Json.createReader(new StringReader(payload))) {
            JsonObject order = reader.readObject();
            orderId = order.getString("id");
            createdAt = Instant.parse(order.getString("createdAt"));
        } catch (JsonException | ClassCastException | NullPointerException | DateTimeException e) {
            malformed.incrementAndGet();
            return;
        }
        orderIds.add(orderId);
        long micros = Duration.between(createdAt, arrival).toNanos() / 1_000;
        synchronized (this) {
            if (latencyCount == latencyMicros.length) {
                createdMicros = Arrays.copyOf(createdMicros, latencyCount * 2);
                latencyMicros = Arrays.copyOf(latencyMicros, latencyCount * 2);
            }
            createdMicros[latencyCount] = epochMicros(createdAt);
            latencyMicros[latencyCount++] = micros;
        }
    }

    /**
     * Returns the distinct {@code x-outbox-id}s that arrived (a live, unmodifiable view): every
     * copy of a message carries the same id, so this is the set of messages delivered.
     */
    public Set<String> outboxIds() {
        return Collections.unmodifiableSet(outboxIds);
    }

    /** Returns how many distinct orders arrived (any order, also ones the demo did not place). */
    public int orders() {
        return orderIds.size();
    }

    /** Returns how many of {@code placed} arrived. */
    public int deliveredOf(Collection<String> placed) {
        int delivered = 0;
        for (String id : placed) {
            if (orderIds.contains(id)) {
                delivered++;
            }
        }
        return delivered;
    }

    /** Returns all arrivals, duplicates included. */
    public long arrivals() {
        return arrivals.get();
    }

    /** Returns the arrivals whose {@code x-outbox-id} had arrived before. */
    public long duplicates() {
        return duplicates.get();
    }

    /** Returns arrivals without {@code x-outbox-id} or with a payload that is not an order. */
    public long malformed() {
        return malformed.get();
    }

    /**
     * Returns the latency percentiles of the first arrivals, in milliseconds, by nearest rank;
     * empty if nothing arrived.
     */
    public double[] latencyMillis(double... percentiles) {
        return latencyMillisSince(Long.MIN_VALUE, percentiles);
    }

    /**
     * Returns the latency percentiles, in milliseconds by nearest rank, of the first arrivals of
     * orders created at or after {@code since} (a warm-up excluded); empty if none arrived.
     */
    public double[] latencyMillis(Instant since, double... percentiles) {
        return latencyMillisSince(epochMicros(since), percentiles);
    }

    private synchronized double[] latencyMillisSince(long sinceMicros, double... percentiles) {
        long[] sorted = new long[latencyCount];
        int count = 0;
        for (int i = 0; i < latencyCount; i++) {
            if (createdMicros[i] >= sinceMicros) {
                sorted[count++] = latencyMicros[i];
            }
        }
        if (count == 0) {
            return new double[0];
        }
        sorted = Arrays.copyOf(sorted, count);
        Arrays.sort(sorted);
        double[] result = new double[percentiles.length];
        for (int i = 0; i < percentiles.length; i++) {
            int rank = (int) Math.ceil(percentiles[i] / 100.0 * sorted.length);
            result[i] = sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1000.0;
        }
        return result;
    }

    private static long epochMicros(Instant instant) {
        return instant.getEpochSecond() * 1_000_000 + instant.getNano() / 1_000;
    }
}
