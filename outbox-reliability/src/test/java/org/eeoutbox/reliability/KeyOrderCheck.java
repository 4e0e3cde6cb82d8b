package org.eeoutbox.reliability;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eeoutbox.testkit.ReceivedRequest;

/**
 * A receiver's check of per-key order, fed with every accepted delivery of keyed messages (headers
 * {@code x-outbox-ordering-key} and {@code x-outbox-ordering-seq}). Per key, the first arrivals of
 * the sequences must come in increasing order; a repeat is allowed only of the key's current
 * head, the highest sequence that has arrived (the crash window re-sends the head, never an older
 * message after a newer one). Anything else is recorded as a violation. Thread-safe.
 */
final class KeyOrderCheck {

    static final String KEY_HEADER = "x-outbox-ordering-key";
    static final String SEQUENCE_HEADER = "x-outbox-ordering-seq";
    private static final int MAX_VIOLATIONS_KEPT = 20;

    private final Map<String, List<Long>> firstArrivals = new HashMap<>(); // guarded by this
    private final List<String> violations = new ArrayList<>(); // guarded by this
    private long violationCount; // guarded by this
    private long repeatsOfHead; // guarded by this
    private long withoutHeaders; // guarded by this

    /** Records an accepted delivery; one without an ordering key is not this check's business. */
    void record(ReceivedRequest request) {
        String key = request.header(KEY_HEADER);
        String sequence = request.header(SEQUENCE_HEADER);
        if (key == null) {
            return;
        }
        if (sequence == null) {
            synchronized (this) {
                withoutHeaders++;
            }
            return;
        }
        long parsed;
        try {
            parsed = Long.parseLong(sequence);
        } catch (NumberFormatException e) {
            synchronized (this) {
                withoutHeaders++;
            }
            return;
        }
        record(key, parsed);
    }

    /** Records the arrival of sequence {@code sequence} of {@code key}. */
    synchronized void record(String key, long sequence) {
        List<Long> arrived = firstArrivals.computeIfAbsent(key, k -> new ArrayList<>());
        long head = arrived.isEmpty() ? Long.MIN_VALUE : arrived.get(arrived.size() - 1);
        if (sequence > head) {
            arrived.add(sequence);
        } else if (sequence == head) {
            repeatsOfHead++;
        } else {
            violationCount++;
            if (violations.size() < MAX_VIOLATIONS_KEPT) {
                String arrival = arrived.contains(sequence) ? " arrived again" : " arrived first";
                violations.add(key + ": " + sequence + arrival + " after " + head);
            }
        }
    }

    /** Returns each key's sequences in the order of their first arrivals (a copy). */
    synchronized Map<String, List<Long>> firstArrivals() {
        Map<String, List<Long>> copy = new TreeMap<>();
        firstArrivals.forEach((key, sequences) -> copy.put(key, List.copyOf(sequences)));
        return copy;
    }

    /** Returns how many arrivals broke the order (0 when the order held). */
    synchronized long violationCount() {
        return violationCount;
    }

    /** Returns the first violations, described, e.g. {@code "order-7: 3 arrived first after 4"}. */
    synchronized List<String> violations() {
        return List.copyOf(violations);
    }

    /** Returns how many arrivals repeated their key's head (the allowed duplicates). */
    synchronized long repeatsOfHead() {
        return repeatsOfHead;
    }

    /** Returns how many arrivals with a key lacked a decimal sequence. */
    synchronized long withoutHeaders() {
        return withoutHeaders;
    }
}
