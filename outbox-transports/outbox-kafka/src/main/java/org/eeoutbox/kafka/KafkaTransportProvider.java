package org.eeoutbox.kafka;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.config.OutboxConfigurationException;
import org.eeoutbox.config.Property;
import org.eeoutbox.spi.CloudEvent;
import org.eeoutbox.spi.TransportContext;
import org.eeoutbox.spi.TransportProvider;

/**
 * The Kafka transport for the outbox runtime. An application {@code Producer<String, String>}
 * bean wins and is never closed by the outbox; otherwise a producer is built from the
 * {@code outbox.kafka.producer.*} properties (the prefix removed, for example
 * {@code outbox.kafka.producer.bootstrap.servers}) and closed with the outbox. Without either,
 * there is no Kafka transport. Property values are never logged: they may hold credentials.
 * Found through {@code META-INF/services}; the runtime loads it only when the Kafka client is
 * present.
 */
public final class KafkaTransportProvider implements TransportProvider {

    private static final Logger LOG = System.getLogger(KafkaTransportProvider.class.getName());
    private static final String PRODUCER_PREFIX = "outbox.kafka.producer.";

    static final Property<String> PRODUCER = Property.text(PRODUCER_PREFIX + "<key>", null,
            "any Kafka producer setting",
            "A setting of the producer the outbox builds when the application has no `Producer<String, String>` bean.");
    static final Property<Duration> SEND_TIMEOUT = Property.duration("outbox.kafka.send-timeout",
            KafkaMessageDeliverer.DEFAULT_SEND_TIMEOUT, Duration.ofSeconds(1), Duration.ofHours(1),
            "How long one batch waits for the broker's acknowledgements; keep the transaction timeout above it.");
    static final Property<Duration> POSTPONE_DELAY = Property.duration("outbox.kafka.postpone-delay",
            KafkaMessageDeliverer.DEFAULT_POSTPONE_DELAY, Duration.ZERO, Duration.ofDays(1),
            "How long entries wait before the next try while the producer is broken (closed, fenced, not authenticated).");

    /** Public for {@link java.util.ServiceLoader}. */
    public KafkaTransportProvider() {
    }

    @Override
    public String deliveryType() {
        return KafkaDelivery.DELIVERY_TYPE;
    }

    @Override
    public List<Property<?>> properties() {
        return List.of(PRODUCER, SEND_TIMEOUT, POSTPONE_DELAY);
    }

    @Override
    public void check(Configuration configuration) {
        configuration.get(SEND_TIMEOUT);
        configuration.get(POSTPONE_DELAY);
        cloudEventsSource(configuration);
    }

    /** The configured CloudEvents source, recording a problem (and returning the default) when it is invalid. */
    private static URI cloudEventsSource(Configuration configuration) {
        try {
            return CloudEvent.source(configuration.get(CloudEvent.SOURCE));
        } catch (IllegalArgumentException e) {
            configuration.problem(e.getMessage());
            return CloudEvent.DEFAULT_SOURCE;
        }
    }

    /**
     * @throws OutboxConfigurationException if the application has several producer beans, or the
     *         producer properties cannot build a producer (with Kafka's reason)
     */
    @Override
    public Optional<MessageDeliverer> create(TransportContext context) {
        Configuration configuration = context.configuration();
        List<Producer> producers = context.applicationBeans(Producer.class, KafkaTransportProvider::isStringProducer);
        if (producers.size() > 1) {
            throw new OutboxConfigurationException(List.of("The application has " + producers.size()
                    + " beans of type Producer<String, String>; the outbox's Kafka deliveries need at most one"));
        }
        KafkaMessageDeliverer.Builder builder;
        if (producers.size() == 1) {
            LOG.log(Level.INFO, "Outbox Kafka deliveries use the application's Producer bean");
            @SuppressWarnings("unchecked") // the bean's type is Producer<String, String>, checked above
            Producer<String, String> producer = producers.get(0);
            builder = KafkaMessageDeliverer.builder(producer);
        } else {
            Map<String, String> producerConfig = configuration.withPrefix(PRODUCER_PREFIX);
            if (producerConfig.isEmpty()) {
                return Optional.empty();
            }
            LOG.log(Level.INFO, "Outbox Kafka deliveries use a producer built from properties {0}",
                    producerConfig.keySet());
            builder = KafkaMessageDeliverer.builder(producerConfig);
        }
        builder.sendTimeout(configuration.get(SEND_TIMEOUT)).postponeDelay(configuration.get(POSTPONE_DELAY))
                .cloudEventsSource(cloudEventsSource(configuration)).clock(context.clock());
        configuration.throwIfInvalid();
        try {
            return Optional.of(builder.build());
        } catch (KafkaException e) {
            // Kafka says "Failed to construct kafka producer"; its cause names the bad setting.
            Throwable cause = e;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            throw new OutboxConfigurationException(List.of("The " + PRODUCER_PREFIX + "* properties cannot build a"
                    + " Kafka producer: " + cause.getMessage()));
        }
    }

    private static boolean isStringProducer(Type type) {
        return type instanceof ParameterizedType parameterized && parameterized.getRawType() == Producer.class
                && Arrays.equals(parameterized.getActualTypeArguments(), new Type[] {String.class, String.class});
    }
}
