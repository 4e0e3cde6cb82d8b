package org.eeoutbox.kafka;

import static org.eeoutbox.kafka.KafkaMessageDelivererTest.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cloudevents.kafka.KafkaMessageFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.TraceContext;
import org.eeoutbox.spi.CloudEvent;
import org.eeoutbox.testkit.KafkaBroker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/** The deliverer against a real single-node KRaft broker, read back by a real consumer. */
class KafkaBrokerDeliveryTest {

    private static final System.Logger LOG = System.getLogger(KafkaBrokerDeliveryTest.class.getName());

    private static KafkaBroker broker;
    private static Producer<String, String> producer;

    @BeforeAll
    static void startBroker() {
        broker = KafkaBroker.start();
        producer = producer(Map.of());
    }

    @AfterAll
    static void stopBroker() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void cloudEventsInBothModesAreReadByTheCloudEventsSdk() {
        String topic = topic("cloudevents");
        broker.createTopic(topic, 1);
        URI source = URI.create("https://orders.example.com/outbox");
        KafkaMessageDeliverer deliverer = KafkaMessageDeliverer.builder(producer).cloudEventsSource(source).build();
        String payload = "{\"order\":42,\"note\":\"caf\u00e9\"}";
        TraceContext trace = new TraceContext("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "a=1");
        OutboxEntry binary = entry(KafkaDelivery.topic(topic).key("42").cloudEvents(CloudEvent.Mode.BINARY)
                .header("traceparent", "00-11111111111111111111111111111111-2222222222222222-01").build(), payload)
                .withTraceContext(trace);
        OutboxEntry structured = entry(KafkaDelivery.topic(topic).key("42")
                .cloudEvents(CloudEvent.Mode.STRUCTURED).build(), payload);

        assertEquals(List.of(DeliveryResult.delivered(), DeliveryResult.delivered()),
                deliverer.deliverBatch(List.of(binary, structured)));

        List<ConsumerRecord<String, String>> records = readAll(topic, 1, 2);
        assertEquals(payload, records.get(0).value(), "binary mode: the value is the payload");
        assertTrue(records.get(1).value().startsWith("{\"specversion\":\"1.0\""), records.get(1).value());
        for (int i = 0; i < 2; i++) {
            OutboxEntry entry = List.of(binary, structured).get(i);
            ConsumerRecord<String, String> record = records.get(i);
            io.cloudevents.CloudEvent event = KafkaMessageFactory.createReader(record.headers(),
                    record.value().getBytes(StandardCharsets.UTF_8)).toEvent();
            assertEquals(entry.id().toString(), event.getId());
            assertEquals("test.event", event.getType());
            assertEquals(source, event.getSource());
            assertEquals(entry.createdAt(), event.getTime().toInstant());
            assertEquals("application/json", event.getDataContentType());
            assertEquals(payload, new String(event.getData().toBytes(), StandardCharsets.UTF_8));
            assertEquals("42", record.key());
            assertEquals(entry.id().toString(), text(record.headers().lastHeader("x-outbox-id")));
        }
        Headers traced = records.get(0).headers();
        assertEquals(List.of(trace.traceparent()), texts(traced.headers("traceparent")),
                "the entry's trace context replaces the delivery's traceparent");
        assertEquals(List.of("a=1"), texts(traced.headers("tracestate")));
        assertEquals(trace.traceparent(), text(traced.lastHeader("ce_traceparent")));
        assertEquals(List.of(), texts(records.get(1).headers().headers("traceparent")), "none without a context");
    }

    private static List<String> texts(Iterable<Header> headers) {
        List<String> texts = new ArrayList<>();
        headers.forEach(header -> texts.add(text(header)));
        return texts;
    }

    @Test
    void tenThousandRecordsInBatchesOfHundredArriveWithKeyValueAndHeaders() throws Exception {
        String topic = topic("bulk");
        broker.createTopic(topic, 3);
        KafkaMessageDeliverer deliverer = KafkaMessageDeliverer.of(producer);
        List<OutboxEntry> entries = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            entries.add(entry(KafkaDelivery.topic(topic).key("key-" + i).header("x-outbox-id", "user-" + i)
                    .header("seq", Integer.toString(i)).build(), "payload-" + i));
        }

        // Two threads deliver interleaved batches of 100 through one deliverer: it is thread-safe.
        long start = System.nanoTime();
        ExecutorService threads = Executors.newFixedThreadPool(2);
        List<Future<List<DeliveryResult>>> batches = new ArrayList<>();
        for (int from = 0; from < entries.size(); from += 100) {
            List<OutboxEntry> batch = entries.subList(from, from + 100);
            batches.add(threads.submit(() -> deliverer.deliverBatch(batch)));
        }
        for (Future<List<DeliveryResult>> batch : batches) {
            List<DeliveryResult> results = batch.get();
            assertEquals(100, results.size());
            for (DeliveryResult result : results) {
                assertEquals(DeliveryResult.delivered(), result);
            }
        }
        threads.shutdown();
        LOG.log(System.Logger.Level.INFO, "10,000 records delivered in {0} ms",
                (System.nanoTime() - start) / 1_000_000);

        Map<String, OutboxEntry> byId = new HashMap<>();
        for (OutboxEntry entry : entries) {
            byId.put(entry.id().toString(), entry);
        }
        List<ConsumerRecord<String, String>> records = readAll(topic, 3, entries.size());
        assertEquals(entries.size(), records.size());
        Set<String> seen = new HashSet<>();
        for (ConsumerRecord<String, String> record : records) {
            String id = text(record.headers().lastHeader("x-outbox-id"));
            OutboxEntry entry = byId.get(id);
            assertNotNull(entry, "the last x-outbox-id is an entry id, not the user's value: " + id);
            assertTrue(seen.add(id), "no duplicate of " + id);
            String seq = text(record.headers().lastHeader("seq"));
            assertEquals("key-" + seq, record.key());
            assertEquals(entry.payload(), record.value());
            assertEquals("payload-" + seq, record.value());
            List<String> names = new ArrayList<>();
            for (Header header : record.headers()) {
                names.add(header.key());
            }
            assertEquals(List.of("x-outbox-id", "seq", "x-outbox-message-type", "x-outbox-attempt", "x-outbox-id"), names);
            assertEquals("1", text(record.headers().lastHeader("x-outbox-attempt")));
            assertEquals("user-" + seq, text(record.headers().headers("x-outbox-id").iterator().next()));
        }
    }

    @Test
    void recordAboveMaxRequestSizeIsPermanentAndTheOthersAreDelivered() {
        String topic = topic("large");
        broker.createTopic(topic, 1);
        String huge = "x".repeat(1_100_000); // above the default max.request.size of 1 MiB

        List<DeliveryResult> results = KafkaMessageDeliverer.of(producer).deliverBatch(List.of(
                entry(KafkaDelivery.topic(topic).build(), "small"),
                entry(KafkaDelivery.topic(topic).build(), huge),
                entry(KafkaDelivery.topic(topic).build(), "small too")));

        assertEquals(DeliveryResult.delivered(), results.get(0));
        DeliveryResult.PermanentFailure failure = assertInstanceOf(DeliveryResult.PermanentFailure.class, results.get(1));
        assertTrue(failure.reason().startsWith("Kafka RecordTooLargeException"), failure.reason());
        assertEquals(DeliveryResult.delivered(), results.get(2));
    }

    @Test
    void missingTopicIsRetriableWithinBoundedTime() {
        String existing = topic("existing");
        broker.createTopic(existing, 1);
        String missing = topic("missing");
        List<OutboxEntry> batch = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            batch.add(entry(KafkaDelivery.topic(missing).key("k" + i).build(), "lost-" + i));
        }
        batch.add(entry(KafkaDelivery.topic(existing).build(), "found"));

        try (Producer<String, String> shortBlock = producer(Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, 2_000))) {
            long start = System.nanoTime();
            List<DeliveryResult> results = KafkaMessageDeliverer.of(shortBlock).deliverBatch(batch);
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);

            for (int i = 0; i < 5; i++) {
                DeliveryResult.RetriableFailure failure =
                        assertInstanceOf(DeliveryResult.RetriableFailure.class, results.get(i));
                assertTrue(failure.reason().contains("not present in metadata"), failure.reason());
            }
            assertEquals(DeliveryResult.delivered(), results.get(5));
            // One max.block.ms wait for the missing topic, not one per record (5 x 2 s).
            assertTrue(elapsed.compareTo(Duration.ofSeconds(5)) < 0, "took " + elapsed);
        }
    }

    @Test
    void brokerStoppedMidRunLeavesEntriesPendingAndARestartDeliversThem() throws Exception {
        String topic = topic("outage");
        broker.createTopic(topic, 2);
        Map<String, Object> quick = Map.of(
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 1_500,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 3_000,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 2_000,
                ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 500);
        Duration sendTimeout = Duration.ofSeconds(5);
        List<OutboxEntry> entries = entries(topic, "run", 1_000);
        Map<OutboxEntry, DeliveryResult> outcomes = new ConcurrentHashMap<>();
        List<Duration> durations = new CopyOnWriteArrayList<>();
        CountDownLatch running = new CountDownLatch(5);
        boolean stopped = false;
        ExecutorService worker = Executors.newSingleThreadExecutor();
        try (Producer<String, String> outageProducer = producer(quick)) {
            KafkaMessageDeliverer deliverer = KafkaMessageDeliverer.builder(outageProducer)
                    .sendTimeout(sendTimeout).build();
            // A worker delivers batches of 10 until three batches in a row did not go through.
            Future<?> run = worker.submit(() -> {
                int failing = 0;
                for (int from = 0; from < entries.size() && failing < 3; from += 10) {
                    List<OutboxEntry> batch = entries.subList(from, from + 10);
                    long start = System.nanoTime();
                    List<DeliveryResult> results = deliverer.deliverBatch(batch);
                    durations.add(Duration.ofNanos(System.nanoTime() - start));
                    for (int i = 0; i < batch.size(); i++) {
                        outcomes.put(batch.get(i), results.get(i));
                    }
                    if (results.stream().allMatch(DeliveryResult.Delivered.class::isInstance)) {
                        failing = 0;
                        running.countDown();
                    } else {
                        failing++;
                    }
                    Thread.sleep(50);
                }
                return null;
            });
            assertTrue(running.await(30, TimeUnit.SECONDS), "five batches delivered before the outage");
            broker.stop();
            stopped = true;
            run.get(60, TimeUnit.SECONDS);

            Map<String, Long> kinds = new TreeMap<>();
            Set<String> reasons = new TreeSet<>();
            for (DeliveryResult result : outcomes.values()) {
                kinds.merge(result.getClass().getSimpleName(), 1L, Long::sum);
                assertFalse(result instanceof DeliveryResult.PermanentFailure, "an outage is never permanent: " + result);
                if (result instanceof DeliveryResult.RetriableFailure failure) {
                    reasons.add(failure.reason().replaceAll("[0-9]+", "N"));
                }
            }
            Duration longest = durations.stream().max(Duration::compareTo).orElseThrow();
            LOG.log(System.Logger.Level.INFO, "Outage: outcomes {0}, longest batch {1} ms, reasons {2}",
                    kinds, longest.toMillis(), reasons);
            assertTrue(kinds.getOrDefault("RetriableFailure", 0L) + kinds.getOrDefault("Postponed", 0L) > 0,
                    "some entries stayed pending: " + kinds);
            // send timeout + one max.block.ms wait in send() + slack for a loaded machine
            assertTrue(longest.compareTo(sendTimeout.plusSeconds(2 + 3)) < 0, "bounded batch: " + longest);

            broker.restart();
            stopped = false;
            // As the processor would: retry every entry not delivered (or never claimed) until delivered.
            List<OutboxEntry> pending = new ArrayList<>();
            for (OutboxEntry entry : entries) {
                if (!(outcomes.get(entry) instanceof DeliveryResult.Delivered)) {
                    pending.add(entry);
                }
            }
            for (int attempt = 1; !pending.isEmpty(); attempt++) {
                assertTrue(attempt <= 10, "still pending after 10 retries: " + pending.size());
                List<DeliveryResult> results = deliverer.deliverBatch(pending);
                List<OutboxEntry> next = new ArrayList<>();
                for (int i = 0; i < pending.size(); i++) {
                    assertFalse(results.get(i) instanceof DeliveryResult.PermanentFailure, results.get(i).toString());
                    if (!(results.get(i) instanceof DeliveryResult.Delivered)) {
                        next.add(pending.get(i));
                    }
                }
                LOG.log(System.Logger.Level.INFO, "Retry {0} after the restart: {1} of {2} entries still pending",
                        attempt, next.size(), pending.size());
                pending = next;
            }
            Set<String> expected = new HashSet<>();
            entries.forEach(entry -> expected.add(entry.id().toString()));
            Set<String> read = new HashSet<>();
            // At least once: a record may have been written although its batch reported it retriable.
            for (ConsumerRecord<String, String> record : readAll(topic, 2, expected.size())) {
                read.add(text(record.headers().lastHeader("x-outbox-id")));
            }
            assertEquals(expected, read);
        } finally {
            worker.shutdownNow();
            if (stopped) {
                broker.restart(); // leave a running broker to the other tests
            }
        }
    }

    @Test
    void closedProducerPostponesEveryEntry() {
        String topic = topic("closed");
        broker.createTopic(topic, 1);
        Producer<String, String> closed = producer(Map.of());
        closed.close();
        Instant now = Instant.parse("2030-01-01T00:00:00Z");
        KafkaMessageDeliverer deliverer = KafkaMessageDeliverer.builder(closed)
                .clock(Clock.fixed(now, ZoneOffset.UTC)).postponeDelay(Duration.ofMinutes(1)).build();

        List<DeliveryResult> results = deliverer.deliverBatch(entries(topic, "closed", 10));

        assertEquals(10, results.size());
        for (DeliveryResult result : results) {
            DeliveryResult.Postponed postponed = assertInstanceOf(DeliveryResult.Postponed.class, result);
            assertEquals(now.plusSeconds(60), postponed.notBefore());
            assertTrue(postponed.reason().contains("closed"), postponed.reason());
        }
    }

    @Test
    void externalBrokerIsUsedAndCannotBeStopped() {
        System.setProperty(KafkaBroker.BOOTSTRAP_PROPERTY, broker.bootstrapServers());
        try (KafkaBroker external = KafkaBroker.start()) {
            assertTrue(external.isExternal());
            assertEquals(broker.bootstrapServers(), external.bootstrapServers());
            String topic = topic("external");
            external.createTopic(topic, 1);
            assertEquals(DeliveryResult.delivered(),
                    KafkaMessageDeliverer.of(producer).deliver(entry(KafkaDelivery.topic(topic).build(), "x")));
            TestAbortedException stop = assertThrows(TestAbortedException.class, external::stop);
            assertTrue(stop.getMessage().startsWith("stop() is not supported on an external Kafka broker"),
                    stop.getMessage());
            assertThrows(TestAbortedException.class, external::restart);
        } finally {
            System.clearProperty(KafkaBroker.BOOTSTRAP_PROPERTY);
        }
    }

    private static List<OutboxEntry> entries(String topic, String prefix, int count) {
        List<OutboxEntry> entries = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            entries.add(entry(KafkaDelivery.topic(topic).key(prefix + "-" + i).build(), prefix + "-payload-" + i));
        }
        return entries;
    }

    private static String topic(String name) {
        return "outbox-" + name + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String text(Header header) {
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static Producer<String, String> producer(Map<String, Object> overrides) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 25_000);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
        config.putAll(overrides);
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    /**
     * Reads the topic from the beginning, without a consumer group, until it has seen
     * {@code expected} distinct entry ids (or 30 seconds passed), then polls once more so that a
     * duplicate would show.
     */
    private static List<ConsumerRecord<String, String>> readAll(String topic, int partitions, int expected) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000);
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                     new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> assigned = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                assigned.add(new TopicPartition(topic, p));
            }
            consumer.assign(assigned);
            consumer.seekToBeginning(assigned);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            Set<String> ids = new HashSet<>();
            while (ids.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    records.add(record);
                    ids.add(text(record.headers().lastHeader("x-outbox-id")));
                }
            }
            // A short extra poll, so that a duplicate beyond the expected count would show.
            consumer.poll(Duration.ofMillis(200)).forEach(records::add);
        }
        return records;
    }
}
