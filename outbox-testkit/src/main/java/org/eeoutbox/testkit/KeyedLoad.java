package org.eeoutbox.testkit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.LongStream;

/**
 * The load of the per-key ordering end-to-end tests: {@code keys} ordering keys ({@code key-0},
 * {@code key-1}, ...) with {@code perKey} messages each, published in a random interleaving by
 * {@code publishers} threads at once, one message per transaction.
 *
 * <p>The sizes come from system properties, so the size runs on demand and CI a smaller
 * one: {@value #KEYS_PROPERTY}, {@value #PER_KEY_PROPERTY} and {@value #PUBLISHERS_PROPERTY}, for
 * example {@code -Doutbox.test.ordering.keys=500 -Doutbox.test.ordering.per-key=100}.
 *
 * @param keys       the number of ordering keys
 * @param perKey     the messages published to each key
 * @param publishers the threads publishing at once
 */
public record KeyedLoad(int keys, int perKey, int publishers) {

    /** The system property giving the number of keys. */
    public static final String KEYS_PROPERTY = "outbox.test.ordering.keys";
    /** The system property giving the messages per key. */
    public static final String PER_KEY_PROPERTY = "outbox.test.ordering.per-key";
    /** The system property giving the number of publishing threads. */
    public static final String PUBLISHERS_PROPERTY = "outbox.test.ordering.publishers";

    /**
     * @throws IllegalArgumentException if a size is not positive
     */
    public KeyedLoad {
        if (keys < 1 || perKey < 1 || publishers < 1) {
            throw new IllegalArgumentException("keys, perKey and publishers must be positive: " + keys + ", "
                    + perKey + ", " + publishers);
        }
    }

    /**
     * Returns the load the system properties give, each size defaulting to the argument.
     *
     * @throws IllegalArgumentException if a property gives a size that is not a positive number
     */
    public static KeyedLoad fromSystemProperties(int keys, int perKey, int publishers) {
        return new KeyedLoad(Integer.getInteger(KEYS_PROPERTY, keys), Integer.getInteger(PER_KEY_PROPERTY, perKey),
                Integer.getInteger(PUBLISHERS_PROPERTY, publishers));
    }

    /** Returns the number of messages of the load. */
    public int messages() {
        return keys * perKey;
    }

    /**
     * Publishes the load: hands each key {@link #perKey()} times to {@code publishOne}, from
     * {@link #publishers()} tasks of {@code executor} at once, in a random order. Returns when all
     * are published.
     *
     * @param publishOne publishes one message to the given key in its own transaction
     * @throws Exception what a publisher threw, or a timeout after 10 minutes
     */
    public void publish(ExecutorService executor, Consumer<String> publishOne) throws Exception {
        List<String> order = new ArrayList<>(messages());
        for (int k = 0; k < keys; k++) {
            for (int m = 0; m < perKey; m++) {
                order.add("key-" + k);
            }
        }
        Collections.shuffle(order);
        List<Future<?>> running = new ArrayList<>();
        for (int p = 0; p < publishers; p++) {
            List<String> share = order.subList(p * order.size() / publishers, (p + 1) * order.size() / publishers);
            running.add(executor.submit(() -> share.forEach(publishOne)));
        }
        for (Future<?> publisher : running) {
            publisher.get(10, TimeUnit.MINUTES);
        }
    }

    /** Returns what each key's receiver must see: the sequences 1 to {@link #perKey()}, in order. */
    public Map<String, List<Long>> expectedSequences() {
        Map<String, List<Long>> expected = new TreeMap<>();
        for (int k = 0; k < keys; k++) {
            expected.put("key-" + k, LongStream.rangeClosed(1, perKey).boxed().toList());
        }
        return expected;
    }
}
