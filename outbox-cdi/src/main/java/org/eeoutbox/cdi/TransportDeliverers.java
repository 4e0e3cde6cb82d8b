package org.eeoutbox.cdi;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import org.eclipse.microprofile.config.Config;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.http.HttpDelivererSettings;
import org.eeoutbox.http.HttpMessageDeliverer;
import org.eeoutbox.http.HttpServiceResolver;

/**
 * The built-in transports, configured from MicroProfile Config: always the HTTP deliverer (its
 * services from {@code outbox.http.service.<name>.url}), and the Kafka deliverer when
 * {@code outbox-kafka} and the Kafka client are on the classpath and the application produces a
 * {@code Producer<String, String>} bean or sets {@code outbox.kafka.*} producer properties.
 *
 * <p>Closes on {@link #close()} only what it created (the HTTP client, a Kafka producer it built),
 * never the application's producer. Thread-safe.
 */
@ApplicationScoped
public class TransportDeliverers {

    private static final Logger LOG = System.getLogger(TransportDeliverers.class.getName());
    private static final String SERVICE_PREFIX = "outbox.http.service.";
    private static final String SERVICE_SUFFIX = ".url";
    private static final String KAFKA_CLIENT = "org.apache.kafka.clients.producer.Producer";
    private static final String KAFKA_DELIVERER = "org.eeoutbox.kafka.KafkaMessageDeliverer";

    @Inject
    BeanManager beans;

    private final List<AutoCloseable> created = new ArrayList<>();

    /**
     * Checks the transport properties without creating anything.
     *
     * @throws OutboxConfigurationException naming each invalid property
     */
    static void validate(Config config) {
        ConfigValues values = new ConfigValues(name -> config.getOptionalValue(name, String.class));
        httpSettings(values);
        httpServices(config, values);
        if (!values.problems().isEmpty()) {
            throw new OutboxConfigurationException(values.problems());
        }
    }

    /** Creates the configured deliverers; each runs its asynchronous work on {@code executor}. */
    synchronized List<MessageDeliverer> create(Config config, Executor executor, Clock clock) {
        ConfigValues values = new ConfigValues(name -> config.getOptionalValue(name, String.class));
        HttpDelivererSettings settings = httpSettings(values);
        Map<String, URI> services = httpServices(config, values);
        if (!values.problems().isEmpty()) {
            throw new OutboxConfigurationException(values.problems());
        }
        List<MessageDeliverer> deliverers = new ArrayList<>();
        HttpMessageDeliverer http = new HttpMessageDeliverer(HttpServiceResolver.of(services), executor, clock, settings);
        created.add(http);
        deliverers.add(http);
        LOG.log(Level.INFO, "Outbox HTTP services: {0}", services);
        if (isPresent(KAFKA_CLIENT) && isPresent(KAFKA_DELIVERER)) {
            KafkaDeliverers.create(config, beans.getExtension(OutboxExtension.class).applicationBeans(), beans, clock).ifPresent(kafka -> {
                deliverers.add(kafka.deliverer());
                kafka.owned().ifPresent(created::add);
            });
        }
        return deliverers;
    }

    /** Closes what {@link #create} built; errors are logged. */
    synchronized void close() {
        for (AutoCloseable closeable : created) {
            try {
                closeable.close();
            } catch (Exception e) {
                LOG.log(Level.WARNING, "Could not close " + closeable, e);
            }
        }
        created.clear();
    }

    private static HttpDelivererSettings httpSettings(ConfigValues values) {
        HttpDelivererSettings defaults = HttpDelivererSettings.DEFAULT;
        return new HttpDelivererSettings(
                values.duration("outbox.http.connect-timeout", defaults.connectTimeout(), java.time.Duration.ofMillis(1)),
                values.duration("outbox.http.request-timeout", defaults.requestTimeout(), java.time.Duration.ofMillis(1)),
                values.integer("outbox.http.max-in-flight", defaults.maxInFlight(), 1, 1024));
    }

    private static Map<String, URI> httpServices(Config config, ConfigValues values) {
        Map<String, URI> services = new TreeMap<>();
        for (String property : config.getPropertyNames()) {
            if (!property.startsWith(SERVICE_PREFIX) || !property.endsWith(SERVICE_SUFFIX)
                    || property.length() <= SERVICE_PREFIX.length() + SERVICE_SUFFIX.length()) {
                continue;
            }
            String name = property.substring(SERVICE_PREFIX.length(), property.length() - SERVICE_SUFFIX.length());
            Optional<String> url = values.string(property);
            if (url.isEmpty()) {
                continue;
            }
            // The value is not echoed: a URL may carry credentials (the resolver's own message
            // shows it without them).
            URI uri;
            try {
                uri = new URI(url.get());
            } catch (URISyntaxException e) {
                values.problem(property + " is invalid: not a URL (" + e.getReason() + " at index " + e.getIndex()
                        + ")");
                continue;
            }
            try {
                HttpServiceResolver.of(Map.of(name, uri));
                services.put(name, uri);
            } catch (IllegalArgumentException e) {
                values.problem(property + " is invalid: " + e.getMessage());
            }
        }
        return services;
    }

    private static boolean isPresent(String className) {
        try {
            Class.forName(className, false, TransportDeliverers.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
