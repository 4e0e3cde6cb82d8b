package org.eeoutbox.it.outbox;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eeoutbox.it.app.TestApps;
import org.eeoutbox.it.support.ItConfig;
import org.eeoutbox.it.support.ItEnvironment;
import org.eeoutbox.it.support.OrdersClient;
import org.eeoutbox.it.support.ServerLog;
import org.eeoutbox.testkit.HttpReceiver;
import org.eeoutbox.testkit.ReceivedRequest;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Delivery end to end, driven from outside the server: orders placed through the application's
 * REST resource, messages observed at the real HTTP receiver and the real Kafka broker.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class DeliveryIT {

    private static final Duration PATIENCE = Duration.ofSeconds(90);

    @Deployment
    static WebArchive deployment() {
        return TestApps.war("delivery", Map.of());
    }

    @ArquillianResource
    URL base;

    @Test
    void thousandOrdersAreEachDeliveredOnceOverHttpWithTheirOutboxId() throws Exception {
        HttpReceiver receiver = ItEnvironment.receiver();
        String prefix = "http-" + UUID.randomUUID();

        List<String> ids = place(prefix, 1000, "http", "/bulk/" + prefix);

        List<ReceivedRequest> received = receiver.await("/bulk/" + prefix, 1000, PATIENCE);
        Map<String, Long> perId = received.stream()
                .collect(Collectors.groupingBy(ReceivedRequest::outboxId, Collectors.counting()));
        assertEquals(Set.copyOf(ids), perId.keySet(), "x-outbox-id is the id publish returned");
        assertEquals(Set.of(1L), Set.copyOf(perId.values()), "each message was delivered once");
        assertTrue(received.stream().allMatch(request -> request.status() == 200));
        assertEquals("application/json", received.get(0).header("content-type"));
        if (!ServerLog.current().containsAfter(0, TracingIT.TRACED)) {
            // On WildFly and Liberty this application leaves MicroProfile Telemetry's SDK disabled (the
            // default), so its tracer records nothing. Payara Micro 6 always records (measured:
            // otel.sdk.disabled=true in the application changes nothing): TracingIT covers it.
            assertNull(received.get(0).header("traceparent"), "without a tracer no trace context is sent");
        }
    }

    @Test
    void thousandOrdersAreEachDeliveredOnceToKafka() throws Exception {
        String prefix = "kafka-" + UUID.randomUUID();

        List<String> ids = place(prefix, 1000, "kafka", null);

        Map<String, Integer> perId = consume(Set.copyOf(ids));
        assertEquals(Set.copyOf(ids), perId.keySet(), "every message reached the topic with its outbox id");
        assertEquals(Set.of(1), Set.copyOf(perId.values()), "each message was written once");
    }

    @Test
    void messagesWaitOutAReceiverOutageAndAreDeliveredAfterBackoff() throws Exception {
        HttpReceiver receiver = ItEnvironment.receiver();
        String prefix = "outage-" + UUID.randomUUID();
        String path = "/outage/" + prefix;
        receiver.down(true);
        try {
            place(prefix, 3, "http", path);
            receiver.await(path, 6, PATIENCE);
            assertTrue(state(prefix + "-0").startsWith("PENDING"), state(prefix + "-0"));
        } finally {
            receiver.down(false);
        }

        List<ReceivedRequest> delivered = receiver.await(request -> request.path().equals(path) && request.status() == 200,
                3, PATIENCE);
        assertEquals(3, delivered.size());
        awaitState(prefix + "-0", "DELIVERED");
        int attempts = Integer.parseInt(state(prefix + "-0").split(" ")[1]);
        assertTrue(attempts >= 3, "two failed attempts were recorded before the success, got " + attempts);
    }

    @Test
    void aReceiverAnswering404FailsTheEntryAfterOneAttempt() throws Exception {
        HttpReceiver receiver = ItEnvironment.receiver();
        String prefix = "gone-" + UUID.randomUUID();
        String path = "/gone/" + prefix;
        receiver.respond(path, 404);

        place(prefix, 1, "http", path);

        awaitState(prefix + "-0", "FAILED");
        String state = state(prefix + "-0");
        assertTrue(state.startsWith("FAILED 1 "), state);
        assertTrue(state.contains("HTTP 404"), state);
        assertEquals(1, receiver.requests(path).size());
    }

    /**
     * Skipped where the server provides no MicroProfile Metrics ({@value ItConfig#SERVER_METRICS}
     * is false in the WildFly profile): the library then registers no metrics, by design.
     */
    @Test
    void metricsAreVisibleAfterDeliveries() throws Exception {
        assumeMetrics();
        String metrics = metricsAfterDeliveries();

        assertTrue(metrics.lines().anyMatch(line -> line.startsWith("outbox_delivered_total{")
                && line.contains("delivery_type=\"http\"")), "the counters carry the delivery type:\n" + metrics);
        assertTrue(metrics.contains("outbox_pending"), metrics);
        assertTrue(metrics.contains("outbox_batch_duration"), metrics);
        assertTrue(metrics.contains("# HELP outbox_delivered_total Entries delivered, by delivery type"), metrics);
        for (String name : List.of("outbox_delivered_total", "outbox_retries_total", "outbox_failed_total",
                "outbox_batch_duration_seconds", "outbox_pending", "outbox_failed_current",
                "outbox_oldest_pending_age_seconds")) {
            assertTrue(metrics.lines().anyMatch(line -> line.startsWith("# HELP " + name + " ")
                    && !line.substring(("# HELP " + name + " ").length()).isBlank()),
                    "a description in # HELP for " + name + ":\n" + metrics);
        }
    }

    @Test
    void onPayara6TheBatchTimersMaxIsInNanosecondsAndItsSumInSeconds() throws Exception {
        assumeMetrics();
        assumeTrue(Boolean.getBoolean("it.server.timers-exported-in-nanoseconds"), "only Payara 6 (FISH-13137) "
                + "exports a timer's max in nanoseconds; what docs/operations.md says of it");
        String metrics = metricsAfterDeliveries();

        double longestBatch = value(metrics, "outbox_batch_duration_seconds_max");
        double batches = value(metrics, "outbox_batch_duration_seconds_count");
        double total = value(metrics, "outbox_batch_duration_seconds_sum");

        assertTrue(longestBatch > 1_000, "a batch takes more than 1 µs, so its max in nanoseconds is above 1000, got "
                + longestBatch);
        assertTrue(total < batches * 60, "the sum is in seconds: under a minute per batch, got " + total + " for "
                + batches + " batches");
    }

    private static void assumeMetrics() {
        assumeTrue(Boolean.parseBoolean(System.getProperty(ItConfig.SERVER_METRICS, "true")),
                "the server provides no MicroProfile Metrics (WildFly ships no MP Metrics API), "
                        + "so the library registers none");
    }

    /** Delivers a few messages, then returns the application metrics once deliveries show. */
    private String metricsAfterDeliveries() throws Exception {
        String prefix = "metrics-" + UUID.randomUUID();
        place(prefix, 5, "http", "/metrics/" + prefix);
        ItEnvironment.receiver().await("/metrics/" + prefix, 5, PATIENCE);

        URI metrics = URI.create(base.getProtocol() + "://" + base.getHost() + ":" + base.getPort()
                + "/metrics?scope=application");
        return await("the application metrics after deliveries").atMost(PATIENCE).pollInterval(Duration.ofMillis(200))
                .until(() -> OrdersClient.get(metrics), containsString("outbox_delivered_total"));
    }

    /** Returns the value of the first Prometheus sample of {@code name} (any tags). */
    private static double value(String metrics, String name) {
        return metrics.lines()
                .filter(line -> line.startsWith(name + "{") || line.startsWith(name + " "))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + " missing from:\n" + metrics));
    }

    private List<String> place(String prefix, int count, String transport, String path) throws Exception {
        return new OrdersClient(base).place(prefix, count, transport, path);
    }

    private String state(String orderId) throws Exception {
        return new OrdersClient(base).state(orderId);
    }

    private void awaitState(String orderId, String status) {
        await("the outbox state of " + orderId).atMost(PATIENCE).pollInterval(Duration.ofMillis(100))
                .until(() -> state(orderId), startsWith(status));
    }

    /** Reads the topic until every expected id arrived (or the patience ran out), counting copies. */
    private static Map<String, Integer> consume(Set<String> expected) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, ItEnvironment.kafka().bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "it-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        Map<String, Integer> perId = new HashMap<>();
        try (KafkaConsumer<String, String> consumer =
                     new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(ItConfig.KAFKA_TOPIC));
            long deadline = System.nanoTime() + PATIENCE.toNanos();
            boolean complete = false;
            while (System.nanoTime() < deadline) {
                var records = consumer.poll(Duration.ofMillis(500));
                for (ConsumerRecord<String, String> record : records) {
                    Header header = record.headers().lastHeader("x-outbox-id");
                    String id = header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
                    if (id != null && expected.contains(id)) {
                        perId.merge(id, 1, Integer::sum);
                    }
                }
                if (complete && records.isEmpty()) {
                    break;
                }
                complete = perId.keySet().containsAll(expected);
            }
        }
        return perId;
    }
}
