package org.eeoutbox.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxHeaders;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.RetryPolicy;
import org.eeoutbox.engine.OutboxListener;
import org.eeoutbox.engine.OutboxProcessor;
import org.eeoutbox.engine.ProcessorSettings;
import org.eeoutbox.engine.StoreOutboxPublisher;
import org.eeoutbox.jdbc.DataSourceTransactions;
import org.eeoutbox.jdbc.DatabaseCheck;
import org.eeoutbox.jdbc.JdbcOutboxStore;
import org.eeoutbox.testkit.Await;
import org.eeoutbox.testkit.KafkaBroker;
import org.eeoutbox.testkit.KeyedLoad;
import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The engine, the real MySQL 8 store and this transport together, against a real Kafka broker. */
class KafkaEndToEndTest {

    private static final int MESSAGES = 5_000;
    private static final String TOPIC = "orders-e2e";

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void fiveThousandMessagesPublishedInTransactionsAreEachDeliveredOnceToKafka() throws Exception {
        TestDatabase database = TestDatabases.mysql();
        database.dropOutboxTables();
        DataSourceTransactions transactions = new DataSourceTransactions(database.dataSource());
        JdbcOutboxStore store = new JdbcOutboxStore(transactions, DatabaseCheck.forLocalTransactions(database.dataSource(), true));
        StoreOutboxPublisher publisher = new StoreOutboxPublisher(store, 1024 * 1024, Clock.systemUTC());
        ExecutorService executor = Executors.newFixedThreadPool(2);
        try (KafkaBroker broker = KafkaBroker.start();
             KafkaMessageDeliverer kafka = KafkaMessageDeliverer.builder(
                     Map.of("bootstrap.servers", broker.bootstrapServers(), "linger.ms", "5")).build()) {
            broker.createTopic(TOPIC, 3);
            List<UUID> published = new ArrayList<>();
            for (int start = 0; start < MESSAGES; start += 100) {
                int first = start;
                published.addAll(transactions.inNewTransaction(() -> {
                    List<UUID> ids = new ArrayList<>();
                    for (int i = first; i < first + 100; i++) {
                        ids.add(publisher.publish(new OutboxMessage("order.created", "{\"order\":" + i + "}"),
                                KafkaDelivery.topic(TOPIC).key("order-" + i).build()));
                    }
                    return ids;
                }));
            }
            OutboxProcessor processor = new OutboxProcessor(store, transactions, List.of(kafka),
                    ProcessorSettings.DEFAULT.withConcurrency(2), new OutboxListener() { }, executor, Clock.systemUTC());

            Await.drained(database, processor::drain, Duration.ofMinutes(3));

            Map<String, Integer> received = consumeAll(broker.bootstrapServers(), MESSAGES);
            assertEquals(published.stream().map(UUID::toString).collect(Collectors.toSet()), received.keySet(),
                    "every published id reached the topic, with the id publish returned");
            assertEquals(Set.of(1), Set.copyOf(received.values()), "no record was written twice");
            assertEquals(MESSAGES, database.queryForLong("SELECT COUNT(*) FROM outbox WHERE status = 'DELIVERED'"));
        } finally {
            executor.shutdownNow();
        }
    }

    /**
     * Issue 17's end-to-end test on Kafka: keys published by 8 threads in a random interleaving, four
     * workers, a fifth of the sends failing: each key's records in sequence order, none missing.
     * {@link KeyedLoad} sizes it (the 500 keys x 100 messages on demand).
     */
    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void keyedMessagesArriveInEachKeysCommitOrderThroughRetriesAndFourWorkers() throws Exception {
        KeyedLoad load = KeyedLoad.fromSystemProperties(50, 20, 8);
        String topic = "orders-ordered";
        TestDatabase database = TestDatabases.mysql();
        database.dropOutboxTables();
        DataSourceTransactions transactions = new DataSourceTransactions(database.dataSource());
        JdbcOutboxStore store = new JdbcOutboxStore(transactions,
                DatabaseCheck.forLocalTransactions(database.dataSource(), true));
        StoreOutboxPublisher publisher = new StoreOutboxPublisher(store, 1024 * 1024, Clock.systemUTC());
        ExecutorService executor = Executors.newFixedThreadPool(load.publishers());
        try (KafkaBroker broker = KafkaBroker.start();
             KafkaMessageDeliverer kafka = KafkaMessageDeliverer.builder(
                     Map.of("bootstrap.servers", broker.bootstrapServers(), "linger.ms", "5")).build()) {
            broker.createTopic(topic, 3);
            load.publish(executor, key -> transactions.inNewTransaction(() -> publisher.publish(
                    new OutboxMessage("order.changed", "{}").withOrderingKey(key), KafkaDelivery.topic(topic).build())));
            List<String> violations = Collections.synchronizedList(new ArrayList<>());
            OutboxProcessor processor = new OutboxProcessor(store, transactions, List.of(flaky(kafka, violations)),
                    ProcessorSettings.DEFAULT.withConcurrency(4).withRetryPolicy(
                            new RetryPolicy(1000, Duration.ZERO, 1.0, Duration.ZERO, 0.0)),
                    new OutboxListener() { }, executor, Clock.systemUTC());

            Await.drained(database, processor::drain, Duration.ofMinutes(10));

            Map<String, List<Long>> arrivals = new TreeMap<>();
            consume(broker.bootstrapServers(), topic, load.messages(), record -> arrivals
                    .computeIfAbsent(record.key(), key -> new ArrayList<>())
                    .add(Long.parseLong(new String(record.headers().lastHeader(OutboxHeaders.ORDERING_SEQ).value(),
                            StandardCharsets.UTF_8))));
            assertEquals(List.of(), violations);
            assertEquals(load.expectedSequences(), arrivals,
                    "each key's records on its partition in sequence order, none missing");
        } finally {
            executor.shutdownNow();
        }
    }

    /** Reads the topic until {@code expected} records arrived and a further poll brings nothing. */
    private static Map<String, Integer> consumeAll(String bootstrap, int expected) {
        Map<String, Integer> received = new HashMap<>();
        consume(bootstrap, TOPIC, expected, record -> received.merge(
                new String(record.headers().lastHeader(OutboxHeaders.OUTBOX_ID).value(), StandardCharsets.UTF_8), 1,
                Integer::sum));
        return received;
    }

    /** Hands each record of {@code topic} to {@code each} until {@code expected} arrived and a poll brings none. */
    private static void consume(String bootstrap, String topic, int expected,
                                Consumer<ConsumerRecord<String, String>> each) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "e2e-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            int total = 0;
            while (System.nanoTime() < deadline) {
                var records = consumer.poll(Duration.ofMillis(500));
                for (ConsumerRecord<String, String> record : records) {
                    total++;
                    each.accept(record);
                }
                if (total >= expected && records.isEmpty()) {
                    break;
                }
            }
        }
    }

    /**
     * Sends through {@code kafka} all but a random fifth of each batch, which fails as retriable
     * without being sent; records a batch that holds two entries of one ordering key.
     */
    private static MessageDeliverer flaky(KafkaMessageDeliverer kafka, List<String> violations) {
        return new MessageDeliverer() {
            @Override
            public String deliveryType() {
                return kafka.deliveryType();
            }

            @Override
            public DeliveryResult deliver(OutboxEntry entry) {
                return deliverBatch(List.of(entry)).get(0);
            }

            @Override
            public List<DeliveryResult> deliverBatch(List<OutboxEntry> entries) {
                Set<String> keys = new HashSet<>();
                List<OutboxEntry> sent = new ArrayList<>();
                DeliveryResult[] results = new DeliveryResult[entries.size()];
                for (int i = 0; i < entries.size(); i++) {
                    if (!keys.add(entries.get(i).orderingKey())) {
                        violations.add("two entries of " + entries.get(i).orderingKey() + " in one batch");
                    }
                    if (ThreadLocalRandom.current().nextInt(5) == 0) {
                        results[i] = DeliveryResult.retriable("broker unavailable (simulated)");
                    } else {
                        sent.add(entries.get(i));
                    }
                }
                List<DeliveryResult> sentResults = kafka.deliverBatch(sent);
                for (int i = 0, next = 0; i < results.length; i++) {
                    if (results[i] == null) {
                        results[i] = sentResults.get(next++);
                    }
                }
                return List.of(results);
            }
        };
    }
}
