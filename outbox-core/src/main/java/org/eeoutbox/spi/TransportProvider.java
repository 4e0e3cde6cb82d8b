package org.eeoutbox.spi;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.config.Property;

/**
 * A transport that plugs into the outbox runtime: found with {@link java.util.ServiceLoader}
 * (a {@code META-INF/services/org.eeoutbox.spi.TransportProvider} file naming the class, in the
 * transport's jar or in the application), configured from the properties it declares, and asked
 * for its deliverer when the outbox starts. The built-in HTTP and Kafka transports use it; an
 * application-written transport uses it the same way (or simply declares a
 * {@link MessageDeliverer} CDI bean, when it needs no configuration of its own).
 *
 * <p>A provider owns the property prefix {@code outbox.<deliveryType>.}: every key under it that
 * none of its {@link #properties()} match is reported as unknown. Implementations need a public
 * no-argument constructor, and are called by one thread at a time.
 */
public interface TransportProvider {

    /** Returns the delivery type of the deliverer it creates, such as {@code "http"}; also its property prefix. */
    String deliveryType();

    /**
     * Returns every property the transport reads, for validation, the unknown-key warning and the
     * configuration reference. A family of keys is declared with placeholders
     * ({@code outbox.http.service.<name>.url}).
     */
    List<Property<?>> properties();

    /**
     * Reads and checks the transport's properties without creating anything, recording each
     * problem in {@code configuration}. Called at deployment, before {@link #create}.
     */
    void check(Configuration configuration);

    /**
     * Creates the transport's deliverer, or returns empty when the transport is not configured
     * (Kafka without a producer). Called once when the outbox starts, after {@link #check} found
     * no problem. The runtime closes the deliverer when the outbox stops if it is
     * {@link AutoCloseable}; it must then close only what it created.
     *
     * @throws org.eeoutbox.config.OutboxConfigurationException when the configuration cannot
     *         work, naming the property (the deployment fails)
     */
    Optional<MessageDeliverer> create(TransportContext context);

    /**
     * Returns whether the transport's entries are complete when their transaction commits: they
     * are written {@code DELIVERED} at publish, never claimed by the processor, and read back by
     * the transport itself (a feed, which clients read from the table). Such a transport needs no
     * deliverer: {@link #create} may return empty. {@code false} by default.
     */
    default boolean completeAtPublish() {
        return false;
    }

    /**
     * Returns whether this transport's entries are claimed in lease mode when neither
     * {@code outbox.processor.claim-mode.<deliveryType>} nor {@code outbox.processor.claim-mode} is
     * set: {@code true} for a transport whose deliveries wait on remote receivers (HTTP), which then
     * holds no transaction or connection while they answer; {@code false} (lock mode, the default)
     * for one whose batches complete in milliseconds. See docs/leases.md.
     */
    default boolean leasedByDefault() {
        return false;
    }

    /**
     * Returns how long the purger keeps this transport's {@code DELIVERED} entries, counted from
     * their delivery, instead of {@code outbox.purge.retention}; empty (the default) for the common
     * retention. Read after {@link #check} found no problem.
     */
    default Optional<Duration> deliveredRetention(Configuration configuration) {
        return Optional.empty();
    }
}
