package org.eeoutbox.reliability;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.eeoutbox.demo.Demo;
import org.eeoutbox.demo.DemoException;
import org.eeoutbox.demo.KafkaReceiver;
import org.eeoutbox.demo.OrderClients;
import org.eeoutbox.demo.PayaraMicro;
import org.eeoutbox.demo.Tally;
import org.eeoutbox.demo.Webhooks;
import org.eeoutbox.testkit.Await;
import org.eeoutbox.testkit.HttpReceiver;
import org.eeoutbox.testkit.Ports;

/**
 * One scenario's run of the example order service: empty tables, a topic of its own, a webhook
 * receiver per Payara Micro instance (all recording into one HTTP {@link Tally}, so a message
 * delivered by two instances counts as a duplicate), a Kafka receiver, and the instances. Each
 * order publishes two messages, {@code order.created} to the webhook and to Kafka. The receivers
 * also feed a {@link KeyOrderCheck} with the keyed webhooks (an order's steps, published with the
 * order as ordering key).
 *
 * <p>Ground truth is the outbox table: a message is published when its row committed (a request
 * cut off by a crash may have committed without the client knowing). Closing a run stops
 * everything it started.
 */
final class Run implements AutoCloseable {

    static final Duration PAYARA_START_TIMEOUT = Duration.ofMinutes(4);
    static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(5);
    static final String HTTP = "http";
    static final String KAFKA = "kafka";

    final String name;
    final Rig rig;
    final Path dir;
    final Tally http = new Tally();
    final Tally kafka = new Tally();
    final KeyOrderCheck keyOrder = new KeyOrderCheck();
    final List<HttpReceiver> receivers = new ArrayList<>();
    final List<PayaraMicro> instances = new ArrayList<>();
    private final List<Map<String, String>> settings = new ArrayList<>();
    private final List<Integer> starts = new ArrayList<>();
    private final KafkaReceiver kafkaReceiver;
    private final String topic;

    /** Prepares a run of {@code instanceCount} instances; none is started yet. */
    Run(Rig rig, String name, int instanceCount) throws IOException {
        this.name = name;
        this.rig = rig;
        this.dir = rig.work.resolve(name);
        rig.dropTables();
        topic = "orders-" + name;
        rig.broker.createTopic(topic, 3);
        kafkaReceiver = new KafkaReceiver(rig.broker.bootstrapServers(), topic, kafka);
        for (int i = 0; i < instanceCount; i++) {
            HttpReceiver receiver = Webhooks.receiver(Demo.WEBHOOK_PATH, request -> {
                http.record(request.outboxId(), request.body(), request.receivedAt());
                keyOrder.record(request);
            });
            receivers.add(receiver);
            Map<String, String> instanceSettings = Demo.serviceSettings(rig.database, receiver.url(),
                    rig.broker.bootstrapServers(), topic);
            // Outages of 30 s and more must not spend the retry budget (1 s doubling to 5 s).
            instanceSettings.put("outbox.processor.max-retries", "1000");
            settings.add(instanceSettings);
            starts.add(0);
            instances.add(null);
        }
    }

    /** Returns instance {@code i}'s settings, to change before it starts. */
    Map<String, String> settings(int i) {
        return settings.get(i);
    }

    /** Starts instance {@code i} (again, on the same port after the first time) without waiting. */
    PayaraMicro start(int i) throws IOException {
        int start = starts.get(i) + 1;
        starts.set(i, start);
        int port = instances.get(i) == null ? Ports.free() : instances.get(i).port();
        PayaraMicro payara = rig.startPayara(dir, "instance-" + (i + 1) + "-start-" + start, settings.get(i), port);
        instances.set(i, payara);
        return payara;
    }

    /** Starts instance {@code i} and waits until the service answers. */
    PayaraMicro startAndAwait(int i) throws IOException, DemoException, InterruptedException {
        PayaraMicro payara = start(i);
        payara.awaitReady(PAYARA_START_TIMEOUT);
        return payara;
    }

    /** Returns the published messages: the outbox rows' ids by delivery type. */
    Map<String, Set<String>> published() throws SQLException {
        Map<String, Set<String>> ids = new TreeMap<>(Map.of(HTTP, new HashSet<>(), KAFKA, new HashSet<>()));
        try (Connection connection = rig.database.admin().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT delivery_type, id FROM outbox")) {
            while (rows.next()) {
                ids.get(rows.getString(1)).add(rows.getString(2));
            }
        }
        return ids;
    }

    /** Returns the outbox rows by status. */
    Map<String, Long> statuses() {
        return rig.database.outboxByStatus();
    }

    /**
     * Waits until no row is pending and each receiver got as many distinct messages as were
     * published to it; returns when that happened ({@link System#nanoTime()}).
     *
     * @param failed how many rows are expected to end FAILED
     */
    long awaitDrained(long failed) {
        Await.until(DRAIN_TIMEOUT, Duration.ofMillis(200), () -> {
            Map<String, Long> statuses = statuses();
            long published = statuses.values().stream().mapToLong(Long::longValue).sum();
            return statuses.getOrDefault("PENDING", 0L) == 0 && published > 0
                    && http.outboxIds().size() + kafka.outboxIds().size() + failed >= published;
        }, () -> name + ": not drained within " + DRAIN_TIMEOUT.toMinutes() + " min: outbox " + statuses()
                + ", http " + http.outboxIds().size() + ", kafka " + kafka.outboxIds().size());
        return System.nanoTime();
    }

    /**
     * Asserts the contract after a fault: every published message arrived at its receiver at
     * least once and nothing else arrived; every copy of a message carried the same
     * {@code x-outbox-id} (one id per order and transport); no row is left pending (a row lock of
     * a dead session would keep it pending) or failed, apart from {@code failedIds}.
     *
     * @return the figures, for the report
     */
    Figures assertNothingLost(Set<String> failedIds) throws SQLException {
        Map<String, Set<String>> published = published();
        Set<String> expectedHttp = new HashSet<>(published.get(HTTP));
        expectedHttp.removeAll(failedIds);
        assertEquals(expectedHttp, http.outboxIds(), name + ": webhook deliveries are not the published messages");
        assertEquals(published.get(KAFKA), kafka.outboxIds(), name + ": Kafka deliveries are not the published messages");
        // A copy under another id would count as another message of the same order.
        assertEquals(http.outboxIds().size(), http.orders(), name + ": an order's webhook arrived under two ids");
        assertEquals(kafka.outboxIds().size(), kafka.orders(), name + ": an order's record arrived under two ids");
        assertEquals(0, http.malformed() + kafka.malformed(), name + ": arrivals without x-outbox-id");
        assertNull(kafkaReceiver.failure(), name + ": the Kafka consumer failed");
        Map<String, Long> expected = new TreeMap<>(Map.of("DELIVERED",
                (long) (expectedHttp.size() + published.get(KAFKA).size())));
        if (!failedIds.isEmpty()) {
            expected.put("FAILED", (long) failedIds.size());
        }
        assertEquals(expected, statuses(), name + ": rows left pending or failed");
        assertTrue(http.outboxIds().size() + kafka.outboxIds().size() > 0, name + ": nothing was published");
        return new Figures(published.get(HTTP).size() + published.get(KAFKA).size(),
                http.outboxIds().size() + kafka.outboxIds().size(), http.duplicates() + kafka.duplicates(),
                http.duplicates());
    }

    /** Returns the published keyed messages: each ordering key's sequences, in increasing order. */
    Map<String, List<Long>> publishedSequences() throws SQLException {
        Map<String, List<Long>> sequences = new TreeMap<>();
        try (Connection connection = rig.database.admin().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT ordering_key, ordering_seq FROM outbox"
                        + " WHERE ordering_key IS NOT NULL ORDER BY ordering_key, ordering_seq")) {
            while (rows.next()) {
                sequences.computeIfAbsent(rows.getString(1), key -> new ArrayList<>()).add(rows.getLong(2));
            }
        }
        return sequences;
    }

    /**
     * Asserts the ordering contract for keyed webhooks: each key's first arrivals came in
     * sequence order and are exactly the key's published sequences (nothing lost, nothing else);
     * every repeat was of its key's head; every published message arrived under its
     * {@code x-outbox-id} and its row is {@code DELIVERED}.
     *
     * @return the figures, for the report
     */
    Figures assertKeyOrderKeptNothingLost() throws SQLException {
        assertEquals(List.of(), keyOrder.violations(), name + ": " + keyOrder.violationCount()
                + " arrivals broke their key's order; the first ones");
        assertEquals(0, keyOrder.withoutHeaders(), name + ": keyed arrivals without x-outbox-ordering-seq");
        Map<String, List<Long>> published = publishedSequences();
        Map<String, List<Long>> arrived = keyOrder.firstArrivals();
        List<String> differing = new ArrayList<>();
        Set<String> keys = new TreeSet<>(published.keySet());
        keys.addAll(arrived.keySet());
        for (String key : keys) {
            if (!Objects.equals(published.get(key), arrived.get(key)) && differing.size() < 5) {
                differing.add(key + ": published " + published.get(key) + ", first arrivals " + arrived.get(key));
            }
        }
        assertEquals(List.of(), differing, name + ": keys whose arrivals are not their published sequences");
        long messages = published.values().stream().mapToLong(List::size).sum();
        assertEquals(published().get(HTTP), http.outboxIds(),
                name + ": webhook deliveries are not the published messages");
        assertEquals(0, http.malformed(), name + ": arrivals without x-outbox-id or with a malformed payload");
        assertEquals(Map.of("DELIVERED", messages), statuses(), name + ": rows left pending or failed");
        assertTrue(messages > 0, name + ": nothing was published");
        return new Figures(messages, http.outboxIds().size(), http.duplicates(), http.duplicates());
    }

    /** Places {@code orders} orders from {@code threads} clients per instance, retrying failed requests. */
    List<OrderClients> placeOrders(int orders, int threads) {
        List<OrderClients> clients = new ArrayList<>();
        int running = instances.size();
        for (int i = 0; i < running; i++) {
            int share = orders / running + (i < orders % running ? 1 : 0);
            OrderClients client = OrderClients.untilPlaced(instances.get(i).baseUrl(), share);
            client.start(threads);
            clients.add(client);
        }
        return clients;
    }

    /** Returns how many orders the clients placed so far. */
    static int placed(List<OrderClients> clients) {
        return clients.stream().mapToInt(c -> c.placed().size()).sum();
    }

    /** Waits until the clients placed at least {@code count} orders (or finished). */
    static void awaitPlaced(List<OrderClients> clients, int count) {
        // No time limit: the clients finish in any case.
        await().forever().pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                .until(() -> placed(clients) >= count || clients.stream().allMatch(OrderClients::done));
    }

    /** Waits until every client thread finished. */
    static void join(List<OrderClients> clients) throws InterruptedException {
        for (OrderClients client : clients) {
            client.join();
        }
    }

    /**
     * Prints and records the scenario's figures.
     *
     * @param faultEndNanos when the fault ended ({@link System#nanoTime()}), or {@code null} for a
     *                      run without a fault
     */
    void report(Figures figures, String what, Long faultEndNanos, long loadEndNanos, long drainedNanos) {
        String drained = String.format(Locale.ROOT, "%.1f s after the last order", (drainedNanos - loadEndNanos) / 1e9);
        if (faultEndNanos != null) {
            drained = String.format(Locale.ROOT, "%.1f s after the fault ended (%s)",
                    (drainedNanos - faultEndNanos) / 1e9, drained);
        }
        rig.report("%s: published %,d, delivered %,d, duplicates %,d (each with its first copy's x-outbox-id),"
                + " lost 0; %s; drained %s", name, figures.published(), figures.delivered(), figures.duplicates(),
                what, drained);
    }

    @Override
    public void close() {
        for (PayaraMicro payara : instances) {
            if (payara != null) {
                payara.close();
            }
        }
        kafkaReceiver.close();
        receivers.forEach(HttpReceiver::close);
    }

    /** A scenario's figures; {@code webhookDuplicates} are the webhook copies among the duplicates. */
    record Figures(long published, long delivered, long duplicates, long webhookDuplicates) {
    }
}
