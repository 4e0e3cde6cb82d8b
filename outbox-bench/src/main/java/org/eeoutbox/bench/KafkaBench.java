package org.eeoutbox.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eeoutbox.OutboxHeaders;
import org.eeoutbox.kafka.KafkaDelivery;
import org.eeoutbox.kafka.KafkaMessageDeliverer;
import org.eeoutbox.testkit.KafkaBroker;

/**
 * Kafka drain rate: the engine draining PostgreSQL rows to a real in-JVM KRaft broker through an
 * idempotent producer with {@code acks=all}, against the same producer alone (no database) sending
 * the same records (value, {@code x-outbox-id} header) in batches of the same size: send each,
 * {@code flush()} once, wait for every acknowledgement, as the deliverer does; then the engine
 * against the no-op drain of the same number of rows. Issue 21's target 3 is the engine at 0.7 of
 * the slower of the two limits: the larger of the two ratios. With {@code --lease}, the engine in
 * lease mode against lock mode (Kafka's default).
 */
final class KafkaBench {

    private static final int BATCH_SIZE = 100;
    private static final String TOPIC = "outbox-bench";
    /** The configuration suffix of the engine's comparison with the no-op drain. */
    static final String AGAINST_DRAIN = "against the no-op drain";
    /** Issue 21, target 3: the engine against the slower of its two limits. */
    private static final double TARGET = 0.70;

    private KafkaBench() {
    }

    static void run(Runner runner, BenchDatabase pg, KafkaBroker broker, Bench.Options options,
                    ExecutorService executor) throws Exception {
        int rows = options.kafkaRows();
        broker.createTopic(TOPIC, 1);
        try (Producer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 25_000,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000), new StringSerializer(), new StringSerializer())) {
            KafkaMessageDeliverer deliverer = KafkaMessageDeliverer.of(producer);
            String metadata = KafkaDelivery.topic(TOPIC).build().metadataJson();
            Runner.Task seed = pg.seeding(rows, KafkaDelivery.DELIVERY_TYPE, metadata);
            Runner.Task seedNoop = pg.seeding(rows, Engine.NOOP_TYPE, Engine.NOOP_METADATA);
            boolean warmUp = true;
            for (int workers : options.kafkaWorkers()) {
                String config = pg.label() + " workers=" + workers;
                Engine engine = new Engine(pg, deliverer, BATCH_SIZE, workers, executor);
                Runner.Side engineSide = Runner.Side.of(seed, () -> engine.drain(rows));
                Runner.Comparison producerLimit = runner.compare("kafka", config, "engine", engineSide, "producer",
                        Runner.Side.of(() -> { }, () -> send(producer, rows, workers, executor)), null, warmUp);
                pg.requireDrained("The Kafka engine");
                warmUp = false;
                Engine noop = new Engine(pg, Engine.noop(), BATCH_SIZE, workers, executor);
                Runner.Comparison drainLimit = runner.compare("kafka", config + " " + AGAINST_DRAIN, "engine",
                        engineSide, "no-op", Runner.Side.of(seedNoop, () -> noop.drain(rows)), null, false);
                pg.requireDrained("The Kafka engine or the no-op drain");
                double ratio = Math.max(producerLimit.ratio(), drainLimit.ratio());
                runner.note("kafka", config, String.format(Locale.ROOT,
                        "engine / min(no-op drain, producer) = %.2f (target ≥ %.2f: %s)", ratio, TARGET,
                        ratio >= TARGET ? "met" : "MISSED"));
                if (options.diagnose()) {
                    Engine sequential = Engine.sequential(pg, deliverer, BATCH_SIZE, workers, executor);
                    runner.compare("diag", config + " kafka batch written", "while acknowledging", engineSide,
                            "after", Runner.Side.of(seed, () -> sequential.drain(rows)), null, false);
                    pg.requireDrained("The Kafka engine with sequential dispatch");
                }
                if (options.lease()) {
                    Engine leased = new Engine(pg, deliverer, BATCH_SIZE, workers, executor, true);
                    runner.compare("lease", pg.label() + " kafka workers=" + workers, "lease",
                            Runner.Side.of(seed, () -> leased.drain(rows)), "lock", engineSide, null, false);
                    pg.requireDrained("The Kafka engine in lease mode");
                }
            }
        }
    }

    /** The limit: batches of records sent, flushed once, every acknowledgement awaited. */
    private static long send(Producer<String, String> producer, int total, int workers, ExecutorService executor)
            throws Exception {
        AtomicInteger remaining = new AtomicInteger(total);
        return Runner.inParallel(workers, executor, () -> {
            long sent = 0;
            int batch;
            while ((batch = Math.min(BATCH_SIZE, remaining.getAndAdd(-BATCH_SIZE))) > 0) {
                List<Future<RecordMetadata>> acks = new ArrayList<>(batch);
                for (int i = 0; i < batch; i++) {
                    RecordHeaders headers = new RecordHeaders();
                    headers.add(OutboxHeaders.OUTBOX_ID, UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8));
                    acks.add(producer.send(new ProducerRecord<String, String>(TOPIC, null, null, BenchDatabase.PAYLOAD, headers)));
                }
                producer.flush();
                for (Future<RecordMetadata> ack : acks) {
                    ack.get();
                }
                sent += batch;
            }
            return sent;
        });
    }
}
