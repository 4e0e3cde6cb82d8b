package org.eeoutbox.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The producer {@link KafkaMessageDeliverer#builder(java.util.Map)} creates: the application's
 * configuration, with defaults derived from the send timeout for what it does not set, so that a
 * batch stays within the send timeout, and {@link StringSerializer} for keys and values.
 *
 * <p>Stateless and thread-safe.
 */
final class KafkaProducerDefaults {

    private KafkaProducerDefaults() {
    }

    /**
     * Returns {@code producerConfig} plus the defaults: {@code acks=all},
     * {@code enable.idempotence=true}, {@code request.timeout.ms} a third of {@code sendTimeout},
     * {@code delivery.timeout.ms} five sixths and {@code max.block.ms} a sixth of it; without
     * serializer settings, since the deliverer passes its own. A new, modifiable map.
     *
     * @param sendTimeout at least 1 second (the builder checks it)
     */
    static Map<String, Object> config(Map<String, ?> producerConfig, Duration sendTimeout) {
        Map<String, Object> config = new HashMap<>(producerConfig);
        long timeoutMs = sendTimeout.toMillis();
        config.putIfAbsent(ProducerConfig.ACKS_CONFIG, "all");
        config.putIfAbsent(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        // sendTimeout >= 1 s, so delivery.timeout.ms >= request.timeout.ms + the default linger.ms.
        config.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) (timeoutMs / 3));
        config.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) (timeoutMs * 5 / 6));
        config.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeoutMs / 6);
        config.remove(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG);
        config.remove(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG);
        return config;
    }

    /**
     * Creates the producer for {@link #config}.
     *
     * @throws org.apache.kafka.common.KafkaException if the configuration is invalid
     */
    static Producer<String, String> create(Map<String, ?> producerConfig, Duration sendTimeout) {
        initializeProtocolTables();
        return new KafkaProducer<>(config(producerConfig, sendTimeout), new StringSerializer(), new StringSerializer());
    }

    /**
     * Initializes Kafka's protocol tables ({@code ApiKeys}, which loads the classes of every
     * request and response, a few hundred) on the calling thread, where the producer's network
     * thread would otherwise do it while building its first request. The outbox creates its
     * producer while the application deploys, and Payara closes the application's jars at the end
     * of its start (payara/Payara#5001): a class the network thread loads at that moment fails
     * with {@code IllegalStateException: zip file closed}, and a class whose initializer failed
     * stays unusable, so the producer never sends again until the application is redeployed. Seen
     * once in CI, inside this initializer, the longest load the network thread makes; on the
     * deploying thread it runs before Payara closes anything.
     */
    private static void initializeProtocolTables() {
        try {
            Class.forName("org.apache.kafka.common.protocol.ApiKeys", true, KafkaProducer.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            // A kafka-clients of another layout: its network thread loads what it needs, as before.
        }
    }
}
