package org.eeoutbox.cdi;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.util.TypeLiteral;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.eclipse.microprofile.config.Config;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.kafka.KafkaMessageDeliverer;

/**
 * The Kafka wiring, in a class of its own: it is loaded only when the Kafka client and
 * {@code outbox-kafka} are present, so the library deploys without them.
 *
 * <p>An application {@code Producer<String, String>} bean wins and is never closed here;
 * otherwise a producer is built from the {@code outbox.kafka.*} properties (the prefix removed,
 * for example {@code outbox.kafka.bootstrap.servers}) and closed with the outbox. Property values
 * are never logged: they may hold credentials.
 */
final class KafkaDeliverers {

    private static final Logger LOG = System.getLogger(KafkaDeliverers.class.getName());
    private static final String PREFIX = "outbox.kafka.";

    /**
     * @param deliverer the deliverer
     * @param owned     what the outbox must close on stop, if it built the producer
     */
    record Created(MessageDeliverer deliverer, Optional<AutoCloseable> owned) {
    }

    private KafkaDeliverers() {
    }

    static Optional<Created> create(Config config, BeanManager beans, Clock clock) {
        Instance<Producer<String, String>> producers = beans.createInstance()
                .select(new TypeLiteral<Producer<String, String>>() { });
        if (producers.isResolvable()) {
            LOG.log(Level.INFO, "Outbox Kafka deliveries use the application's Producer bean");
            KafkaMessageDeliverer deliverer = KafkaMessageDeliverer.builder(producers.get()).clock(clock).build();
            return Optional.of(new Created(deliverer, Optional.empty()));
        }
        Map<String, String> producerConfig = new TreeMap<>();
        for (String property : config.getPropertyNames()) {
            if (property.startsWith(PREFIX)) {
                config.getOptionalValue(property, String.class)
                        .ifPresent(value -> producerConfig.put(property.substring(PREFIX.length()), value));
            }
        }
        if (producerConfig.isEmpty()) {
            return Optional.empty();
        }
        LOG.log(Level.INFO, "Outbox Kafka deliveries use a producer built from properties {0}", producerConfig.keySet());
        KafkaMessageDeliverer deliverer;
        try {
            deliverer = KafkaMessageDeliverer.builder(producerConfig).clock(clock).build();
        } catch (KafkaException e) {
            // Kafka says "Failed to construct kafka producer"; its cause names the bad setting.
            Throwable cause = e;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            throw new OutboxConfigurationException(List.of("The outbox.kafka.* properties cannot build a Kafka"
                    + " producer: " + cause.getMessage()));
        }
        return Optional.of(new Created(deliverer, Optional.of(deliverer)));
    }
}
