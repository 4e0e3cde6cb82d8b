package org.eeoutbox.cdi.internal;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.config.Property;
import org.eeoutbox.spi.TransportContext;
import org.eeoutbox.spi.TransportProvider;

/**
 * The transports on the application's class path, found with {@link java.util.ServiceLoader}: each one's
 * declared properties and checks at deployment, its deliverer at start. A provider whose classes
 * cannot load (the Kafka transport without the Kafka client) is left out with a log line.
 * Immutable and thread-safe; the deliverers it creates belong to the caller.
 */
public final class Transports {

    private static final Logger LOG = System.getLogger(Transports.class.getName());

    private final List<TransportProvider> providers;

    Transports(List<TransportProvider> providers) {
        this.providers = List.copyOf(providers);
    }

    /** Loads the providers visible to {@code loader}. */
    static Transports load(ClassLoader loader) {
        return new Transports(ServiceProviders.load(TransportProvider.class, loader, "Outbox transport"));
    }

    /** Returns the delivery types of the transports, in load order. */
    List<String> deliveryTypes() {
        return providers.stream().map(TransportProvider::deliveryType).toList();
    }

    /** Returns the delivery types whose entries are complete at publish (a feed): written delivered. */
    Set<String> completeAtPublish() {
        return providers.stream().filter(TransportProvider::completeAtPublish).map(TransportProvider::deliveryType)
                .collect(Collectors.toUnmodifiableSet());
    }

    /** Returns the delivery types claimed in lease mode unless configured otherwise. */
    Set<String> leasedByDefault() {
        return providers.stream().filter(TransportProvider::leasedByDefault).map(TransportProvider::deliveryType)
                .collect(Collectors.toUnmodifiableSet());
    }

    /** Returns the delivery types with a retention of their own for delivered entries, with that retention. */
    Map<String, Duration> deliveredRetentions(Configuration configuration) {
        Map<String, Duration> retentions = new HashMap<>();
        providers.forEach(provider -> provider.deliveredRetention(configuration)
                .ifPresent(retention -> retentions.put(provider.deliveryType(), retention)));
        return retentions;
    }

    /** Returns every property the transports declare. */
    List<Property<?>> properties() {
        return providers.stream().flatMap(provider -> provider.properties().stream()).toList();
    }

    /** Checks every transport's properties, recording the problems in {@code configuration}. */
    void check(Configuration configuration) {
        providers.forEach(provider -> provider.check(configuration));
    }

    /**
     * Creates the deliverer of every configured transport; on a failure, closes those already
     * created and rethrows.
     */
    List<MessageDeliverer> create(TransportContext context) {
        List<MessageDeliverer> created = new ArrayList<>();
        try {
            for (TransportProvider provider : providers) {
                provider.create(context).ifPresent(created::add);
            }
            return created;
        } catch (RuntimeException e) {
            close(created);
            throw e;
        }
    }

    /** Closes each deliverer that is {@link AutoCloseable}; errors are logged. */
    static void close(List<MessageDeliverer> deliverers) {
        for (MessageDeliverer deliverer : deliverers) {
            if (deliverer instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    LOG.log(Level.WARNING, "Could not close " + deliverer, e);
                }
            }
        }
    }
}
