package org.eeoutbox.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.NetworkException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.errors.UnknownServerException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eeoutbox.DeliveryInfo;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.kafka.KafkaFailures.Kind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The deliverer against Kafka's {@link MockProducer}: classification, record shape, producer ownership. */
class KafkaMessageDelivererTest {

    private static final Instant NOW = Instant.parse("2030-01-02T03:04:05Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    private final Logger julLogger = Logger.getLogger(KafkaMessageDeliverer.class.getName());
    private final List<LogRecord> logged = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void captureLog() {
        julLogger.addHandler(capture);
    }

    @AfterEach
    void releaseLog() {
        julLogger.removeHandler(capture);
    }

    static Stream<Arguments> classificationTable() {
        return Stream.of(
                Arguments.of(new RecordTooLargeException("too large"), Kind.PERMANENT),
                Arguments.of(new RecordBatchTooLargeException("batch too large"), Kind.PERMANENT),
                Arguments.of(new InvalidTopicException("bad topic"), Kind.PERMANENT),
                Arguments.of(new InvalidRecordException("no key on a compacted topic"), Kind.PERMANENT),
                Arguments.of(new SerializationException("cannot serialize"), Kind.PERMANENT),
                Arguments.of(new TopicAuthorizationException("denied"), Kind.PERMANENT),
                Arguments.of(new GroupAuthorizationException("denied"), Kind.PERMANENT),
                Arguments.of(new TimeoutException("expired"), Kind.RETRIABLE),
                Arguments.of(new UnknownTopicOrPartitionException("unknown"), Kind.RETRIABLE),
                Arguments.of(new NotEnoughReplicasException("isr"), Kind.RETRIABLE),
                Arguments.of(new NotLeaderOrFollowerException("moved"), Kind.RETRIABLE),
                Arguments.of(new NetworkException("reset"), Kind.RETRIABLE),
                Arguments.of(new CorruptRecordException("crc"), Kind.RETRIABLE),
                Arguments.of(new UnknownServerException("boom"), Kind.RETRIABLE),
                Arguments.of(new OutOfOrderSequenceException("sequence"), Kind.RETRIABLE),
                Arguments.of(new InterruptException("interrupted"), Kind.RETRIABLE),
                Arguments.of(new IllegalArgumentException("unexpected"), Kind.RETRIABLE),
                Arguments.of(new IllegalStateException("Cannot perform operation after producer has been closed"),
                        Kind.PRODUCER_BROKEN),
                Arguments.of(new KafkaException("Producer closed while send in progress"), Kind.PRODUCER_BROKEN),
                Arguments.of(new KafkaException("fatal", new ProducerFencedException("fenced")), Kind.PRODUCER_BROKEN),
                Arguments.of(new ProducerFencedException("fenced"), Kind.PRODUCER_BROKEN),
                Arguments.of(new FencedInstanceIdException("fenced"), Kind.PRODUCER_BROKEN),
                Arguments.of(new SaslAuthenticationException("bad password"), Kind.PRODUCER_BROKEN),
                Arguments.of(new SslAuthenticationException("bad certificate"), Kind.PRODUCER_BROKEN),
                Arguments.of(new ClusterAuthorizationException("no IDEMPOTENT_WRITE"), Kind.PRODUCER_BROKEN),
                Arguments.of(new TransactionalIdAuthorizationException("denied"), Kind.PRODUCER_BROKEN),
                Arguments.of(new UnsupportedVersionException("old broker"), Kind.PRODUCER_BROKEN));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("classificationTable")
    void classifiesAsDocumented(Throwable failure, Kind expected) {
        assertEquals(expected, KafkaFailures.kind(failure));
    }

    @Test
    void recordCarriesTopicKeyPayloadUserHeadersAndOutboxIdLast() {
        MockProducer<String, String> producer = mockProducer(true);
        OutboxEntry entry = entry(KafkaDelivery.topic("orders").key("42").header("x-outbox-id", "spoofed")
                .header("tenant", "a").build(), "{\"id\":42}");

        DeliveryResult result = KafkaMessageDeliverer.of(producer).deliver(entry);

        assertEquals(DeliveryResult.delivered(), result);
        ProducerRecord<String, String> record = producer.history().get(0);
        assertEquals("orders", record.topic());
        assertEquals("42", record.key());
        assertEquals("{\"id\":42}", record.value());
        List<String> headers = new ArrayList<>();
        for (Header header : record.headers()) {
            headers.add(header.key() + "=" + new String(header.value(), StandardCharsets.UTF_8));
        }
        assertEquals(List.of("x-outbox-id=spoofed", "tenant=a", "x-outbox-message-type=" + entry.messageType(),
                "x-outbox-attempt=1", "x-outbox-id=" + entry.id()), headers);
        assertEquals(entry.id().toString(),
                new String(record.headers().lastHeader("x-outbox-id").value(), StandardCharsets.UTF_8));
    }

    @Test
    void anEntryWithAnOrderingKeySendsKeyAndSequenceHeadersAndTheKeyAsRecordKeyUnlessTheDeliveryHasOne() {
        MockProducer<String, String> producer = mockProducer(true);
        OutboxMessage message = new OutboxMessage("order.paid", "{}").withOrderingKey("order-42");
        OutboxEntry keyless = OutboxEntry.create(UUID.randomUUID(), message,
                KafkaDelivery.topic("orders").build(), Instant.now()).withOrderingSeq(3);
        OutboxEntry ownKey = OutboxEntry.create(UUID.randomUUID(), message,
                KafkaDelivery.topic("orders").key("partition-7").build(), Instant.now()).withOrderingSeq(4);

        KafkaMessageDeliverer.of(producer).deliverBatch(List.of(keyless, ownKey));

        ProducerRecord<String, String> first = producer.history().get(0);
        assertEquals("order-42", first.key());
        assertEquals("order-42", lastHeader(first, "x-outbox-ordering-key"));
        assertEquals("3", lastHeader(first, "x-outbox-ordering-seq"));
        ProducerRecord<String, String> second = producer.history().get(1);
        assertEquals("partition-7", second.key());
        assertEquals("4", lastHeader(second, "x-outbox-ordering-seq"));
    }

    @Test
    void unreadableMetadataAndForeignTypeArePermanentWhileTheRestIsSent() {
        MockProducer<String, String> producer = mockProducer(true);
        List<OutboxEntry> entries = List.of(
                entry(rawDelivery("kafka", "not json"), "a"),
                entry(KafkaDelivery.topic("t").build(), "b"),
                entry(rawDelivery("http", "{\"topic\":\"t\"}"), "c"),
                entry(rawDelivery("kafka", "{\"topic\":\"bad topic\"}"), "d"),
                entry(KafkaDelivery.topic("t").build(), "e"));

        List<DeliveryResult> results = KafkaMessageDeliverer.of(producer).deliverBatch(entries);

        assertInstanceOf(DeliveryResult.PermanentFailure.class, results.get(0));
        assertTrue(((DeliveryResult.PermanentFailure) results.get(0)).reason()
                .startsWith("unreadable Kafka delivery metadata"), results.get(0).toString());
        assertEquals(DeliveryResult.delivered(), results.get(1));
        assertEquals(DeliveryResult.permanent("delivery type \"http\" is not kafka"), results.get(2));
        assertInstanceOf(DeliveryResult.PermanentFailure.class, results.get(3));
        assertEquals(DeliveryResult.delivered(), results.get(4));
        assertEquals(List.of("b", "e"), producer.history().stream().map(ProducerRecord::value).toList());
    }

    @Test
    void theDestinationIsTheTopicAndUnreadableMetadataThrows() {
        KafkaMessageDeliverer deliverer = KafkaMessageDeliverer.of(mockProducer(true));

        assertEquals("topic 'order-events'",
                deliverer.describeDestination(entry(KafkaDelivery.topic("order-events").key("42").build(), "p")));
        assertThrows(IllegalArgumentException.class,
                () -> deliverer.describeDestination(entry(rawDelivery("kafka", "not json"), "p")));
    }

    @Test
    void eachRecordFollowsItsOwnEntrysMetadataWhenABatchMixesSharedAndDifferentOnes() {
        MockProducer<String, String> producer = mockProducer(true);
        KafkaDelivery orders = KafkaDelivery.topic("orders").key("1").build();
        KafkaDelivery audit = KafkaDelivery.topic("audit").header("tenant", "a").build();
        List<OutboxEntry> entries = List.of(
                entry(orders, "o1"), entry(orders, "o2"), entry(audit, "a1"), entry(orders, "o3"),
                entry(rawDelivery("kafka", "{\"topic\":\"bad topic\"}"), "bad"), entry(orders, "o4"),
                entry(audit, "a2"));

        List<DeliveryResult> results = KafkaMessageDeliverer.of(producer).deliverBatch(entries);

        assertInstanceOf(DeliveryResult.PermanentFailure.class, results.get(4));
        assertEquals(6, results.stream().filter(DeliveryResult.delivered()::equals).count(), results.toString());
        List<String> sent = new ArrayList<>();
        for (ProducerRecord<String, String> record : producer.history()) {
            Header tenant = record.headers().lastHeader("tenant");
            sent.add(record.value() + "->" + record.topic() + "/" + record.key()
                    + (tenant == null ? "" : "/tenant=" + new String(tenant.value(), StandardCharsets.UTF_8)));
        }
        assertEquals(List.of("o1->orders/1", "o2->orders/1", "a1->audit/null/tenant=a", "o3->orders/1",
                "o4->orders/1", "a2->audit/null/tenant=a"), sent);
    }

    @Test
    void fencedProducerPostponesEveryEntryAndLogsOnceUntilItRecovers() {
        MockProducer<String, String> producer = mockProducer(true);
        producer.sendException = new ProducerFencedException("fenced by a newer instance");
        KafkaMessageDeliverer deliverer = KafkaMessageDeliverer.builder(producer).clock(CLOCK)
                .postponeDelay(Duration.ofSeconds(45)).build();
        List<OutboxEntry> batch = List.of(entry(KafkaDelivery.topic("a").build(), "1"),
                entry(KafkaDelivery.topic("b").build(), "2"), entry(KafkaDelivery.topic("c").build(), "3"));

        List<DeliveryResult> first = deliverer.deliverBatch(batch);
        List<DeliveryResult> second = deliverer.deliverBatch(batch);

        for (DeliveryResult result : concat(first, second)) {
            DeliveryResult.Postponed postponed = assertInstanceOf(DeliveryResult.Postponed.class, result);
            assertEquals(NOW.plusSeconds(45), postponed.notBefore());
            assertTrue(postponed.reason().contains("ProducerFencedException"), postponed.reason());
        }
        assertEquals(1, count(Level.SEVERE), "one error per transition to broken, not per entry: " + logged);

        producer.sendException = null;
        assertEquals(List.of(DeliveryResult.delivered(), DeliveryResult.delivered(), DeliveryResult.delivered()),
                deliverer.deliverBatch(batch));
        assertEquals(1, count(Level.INFO), "recovery is logged once: " + logged);
    }

    @Test
    void closedMockProducerPostponesEveryEntry() {
        MockProducer<String, String> producer = mockProducer(true);
        producer.close();

        List<DeliveryResult> results = KafkaMessageDeliverer.builder(producer).clock(CLOCK).build()
                .deliverBatch(List.of(entry(KafkaDelivery.topic("a").build(), "1"),
                        entry(rawDelivery("kafka", "garbage"), "2"), entry(KafkaDelivery.topic("a").build(), "3")));

        assertInstanceOf(DeliveryResult.Postponed.class, results.get(0));
        assertInstanceOf(DeliveryResult.Postponed.class, results.get(1), "not sent at all once the producer is broken");
        assertInstanceOf(DeliveryResult.Postponed.class, results.get(2));
    }

    @Test
    void failuresArrivingOnTheFuturesAreClassifiedPerRecord() throws InterruptedException {
        MockProducer<String, String> producer = mockProducer(false);
        List<RuntimeException> outcomes = new ArrayList<>();
        outcomes.add(new NotEnoughReplicasException("isr too small"));
        outcomes.add(new RecordTooLargeException("too large for the topic"));
        outcomes.add(null);
        outcomes.add(new KafkaException("The producer closed forcefully"));
        Thread completer = new Thread(() -> {
            for (RuntimeException outcome : outcomes) {
                while (!producer.errorNext(outcome)) {
                    Thread.onSpinWait();
                }
            }
        });
        completer.start();
        List<OutboxEntry> batch = new ArrayList<>();
        for (int i = 0; i < outcomes.size(); i++) {
            batch.add(entry(KafkaDelivery.topic("t").key("k").build(), "v" + i));
        }

        List<DeliveryResult> results = KafkaMessageDeliverer.builder(producer).flush(false).clock(CLOCK).build()
                .deliverBatch(batch);
        completer.join(10_000);

        assertInstanceOf(DeliveryResult.RetriableFailure.class, results.get(0));
        assertInstanceOf(DeliveryResult.PermanentFailure.class, results.get(1));
        assertEquals(DeliveryResult.delivered(), results.get(2));
        assertInstanceOf(DeliveryResult.Postponed.class, results.get(3));
    }

    @Test
    void recordNotAcknowledgedWithinTheSendTimeoutIsRetriable() {
        MockProducer<String, String> producer = mockProducer(false);
        KafkaMessageDeliverer deliverer = KafkaMessageDeliverer.builder(producer).flush(false)
                .sendTimeout(Duration.ofSeconds(1)).build();

        long start = System.nanoTime();
        List<DeliveryResult> results = deliverer.deliverBatch(List.of(entry(KafkaDelivery.topic("t").build(), "1"),
                entry(KafkaDelivery.topic("t").build(), "2")));
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);

        for (DeliveryResult result : results) {
            DeliveryResult.RetriableFailure failure = assertInstanceOf(DeliveryResult.RetriableFailure.class, result);
            assertTrue(failure.reason().startsWith("no acknowledgement from Kafka within the send timeout of PT1S"),
                    failure.reason());
        }
        assertTrue(elapsed.compareTo(Duration.ofMillis(900)) > 0 && elapsed.compareTo(Duration.ofSeconds(3)) < 0,
                "one deadline for the whole batch, not one per record: " + elapsed);
    }

    @Test
    void interruptedThreadGetsRetriableResultsAndKeepsItsInterruptFlag() {
        MockProducer<String, String> producer = mockProducer(false);
        KafkaMessageDeliverer deliverer = KafkaMessageDeliverer.builder(producer).flush(false).build();

        Thread.currentThread().interrupt();
        List<DeliveryResult> results;
        try {
            results = deliverer.deliverBatch(List.of(entry(KafkaDelivery.topic("t").build(), "1")));
        } finally {
            assertTrue(Thread.interrupted(), "the interrupt flag is restored");
        }

        assertInstanceOf(DeliveryResult.RetriableFailure.class, results.get(0));
    }

    @Test
    void nullEntryIsAPermanentFailureNotAnException() {
        assertInstanceOf(DeliveryResult.PermanentFailure.class, KafkaMessageDeliverer.of(mockProducer(true)).deliver(null));
    }

    @Test
    void applicationProducerIsNeverClosed() {
        MockProducer<String, String> producer = mockProducer(true);

        KafkaMessageDeliverer.of(producer).close();

        assertFalse(producer.closed());
    }

    @Test
    void ownProducerIsClosedByClose() {
        KafkaMessageDeliverer deliverer = KafkaMessageDeliverer
                .builder(Map.of("bootstrap.servers", "127.0.0.1:9", "client.id", "outbox-kafka-unit-test"))
                .clock(CLOCK).build();

        deliverer.close();
        deliverer.close();
        DeliveryResult result = deliverer.deliver(entry(KafkaDelivery.topic("t").build(), "1"));

        DeliveryResult.Postponed postponed = assertInstanceOf(DeliveryResult.Postponed.class, result);
        assertEquals(NOW.plus(KafkaMessageDeliverer.DEFAULT_POSTPONE_DELAY), postponed.notBefore());
    }

    @Test
    void settingsAreChecked() {
        KafkaMessageDeliverer.Builder builder = KafkaMessageDeliverer.builder(mockProducer(true));

        assertEquals("sendTimeout must be between PT1S and PT1H, got: PT0.5S",
                assertThrows(IllegalArgumentException.class, () -> builder.sendTimeout(Duration.ofMillis(500)))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> builder.sendTimeout(null));
        assertEquals("postponeDelay must be between PT0S and PT24H, got: PT-1S",
                assertThrows(IllegalArgumentException.class, () -> builder.postponeDelay(Duration.ofSeconds(-1)))
                        .getMessage());
        assertEquals("kafka", builder.build().deliveryType());
    }

    private long count(Level level) {
        return logged.stream().filter(record -> record.getLevel().equals(level)).count();
    }

    private static List<DeliveryResult> concat(List<DeliveryResult> first, List<DeliveryResult> second) {
        List<DeliveryResult> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    private static String lastHeader(ProducerRecord<String, String> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    private static MockProducer<String, String> mockProducer(boolean autoComplete) {
        return new MockProducer<>(autoComplete, null, new StringSerializer(), new StringSerializer());
    }

    static OutboxEntry entry(DeliveryInfo delivery, String payload) {
        return OutboxEntry.create(UUID.randomUUID(), new OutboxMessage("test.event", payload), delivery, Instant.now());
    }

    private static DeliveryInfo rawDelivery(String type, String metadata) {
        return new DeliveryInfo() {
            @Override
            public String deliveryType() {
                return type;
            }

            @Override
            public String metadataJson() {
                return metadata;
            }
        };
    }
}
