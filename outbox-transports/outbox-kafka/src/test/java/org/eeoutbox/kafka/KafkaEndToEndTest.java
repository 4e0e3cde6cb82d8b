package org.eeoutbox.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eeoutbox.OutboxHeaders;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.engine.OutboxListener;
import org.eeoutbox.engine.OutboxProcessor;
import org.eeoutbox.engine.ProcessorSettings;
import org.eeoutbox.engine.StoreOutboxPublisher;
import org.eeoutbox.jdbc.DataSourceTransactions;
import org.eeoutbox.jdbc.DatabaseCheck;
import org.eeoutbox.jdbc.JdbcOutboxStore;
import org.eeoutbox.testkit.Await;
import org.eeoutbox.testkit.KafkaBroker;
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

    /** Reads the topic until {@code expected} records arrived and a further poll brings nothing. */
    private static Map<String, Integer> consumeAll(String bootstrap, int expected) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "e2e-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        Map<String, Integer> received = new HashMap<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(TOPIC));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            int total = 0;
            while (System.nanoTime() < deadline) {
                var records = consumer.poll(Duration.ofMillis(500));
                for (ConsumerRecord<String, String> record : records) {
                    total++;
                    String id = new String(record.headers().lastHeader(OutboxHeaders.OUTBOX_ID).value(),
                            StandardCharsets.UTF_8);
                    received.merge(id, 1, Integer::sum);
                }
                if (total >= expected && records.isEmpty()) {
                    break;
                }
            }
        }
        return received;
    }
}
