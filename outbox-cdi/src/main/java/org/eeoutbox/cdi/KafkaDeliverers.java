package org.eeoutbox.cdi;

import jakarta.enterprise.inject.spi.BeanManager;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.time.Clock;
import java.util.Arrays;
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

    private static boolean isStringProducer(Type type) {
        return type instanceof ParameterizedType parameterized && parameterized.getRawType() == Producer.class
                && Arrays.equals(parameterized.getActualTypeArguments(), new Type[] {String.class, String.class});
    }

    /**
     * @throws OutboxConfigurationException if the application has several producer beans
     */
    static Optional<Created> create(Config config, ApplicationBeans applicationBeans, BeanManager manager,
                                    Clock clock) {
        List<Producer<?, ?>> producers = applicationBeans.<Producer<?, ?>>references(manager, Producer.class,
                KafkaDeliverers::isStringProducer);
        if (producers.size() > 1) {
            throw new OutboxConfigurationException(List.of("The application has " + producers.size()
                    + " beans of type Producer<String, String>; the outbox's Kafka deliveries need at most one"));
        }
        if (producers.size() == 1) {
            LOG.log(Level.INFO, "Outbox Kafka deliveries use the application's Producer bean");
            @SuppressWarnings("unchecked") // the bean's type is Producer<String, String>, checked above
            Producer<String, String> producer = (Producer<String, String>) producers.get(0);
            KafkaMessageDeliverer deliverer = KafkaMessageDeliverer.builder(producer).clock(clock).build();
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
