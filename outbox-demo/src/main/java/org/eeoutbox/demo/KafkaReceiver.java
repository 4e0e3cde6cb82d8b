package org.eeoutbox.demo;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The Kafka receiver: a consumer of every partition of the topic, from the beginning, on a thread
 * of its own, recording each record in a {@link Tally} (the {@code x-outbox-id} is the record's
 * last header of that name).
 */
public final class KafkaReceiver implements AutoCloseable {

    private final KafkaConsumer<String, String> consumer;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Throwable failure;

    public KafkaReceiver(String bootstrapServers, String topic, Tally tally) {
        consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.CLIENT_ID_CONFIG, "demo-receiver",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000),
                new StringDeserializer(), new StringDeserializer());
        List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(info -> new TopicPartition(topic, info.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        thread = new Thread(() -> consume(tally), "kafka-receiver");
        thread.setDaemon(true);
        thread.start();
    }

    /** Returns why the consumer stopped early, or {@code null}. */
    public Throwable failure() {
        return failure;
    }

    private void consume(Tally tally) {
        try {
            while (running) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(100));
                Instant arrival = Instant.now();
                for (ConsumerRecord<String, String> record : records) {
                    Header id = record.headers().lastHeader("x-outbox-id");
                    tally.record(id == null ? null : new String(id.value(), StandardCharsets.UTF_8), record.value(),
                            arrival);
                }
            }
        } catch (WakeupException e) {
            // close() stops the consumer
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
        }
    }

    /** Stops the consumer and waits (at most 10 s) until it has closed. */
    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
