package org.eeoutbox.feed.sse;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.config.Property;
import org.eeoutbox.spi.FeedStore;
import org.eeoutbox.spi.TransportContext;
import org.eeoutbox.spi.TransportProvider;

/**
 * The feed delivery type for the outbox runtime: its entries are complete at publish (written
 * delivered, never claimed) and kept for {@code outbox.feed.retention}; it declares the
 * {@code outbox.feed.*} properties and creates no deliverer. Found through
 * {@code META-INF/services}.
 */
public final class FeedTransportProvider implements TransportProvider {

    /** Public for {@link java.util.ServiceLoader}. */
    public FeedTransportProvider() {
    }

    @Override
    public String deliveryType() {
        return FeedStore.DELIVERY_TYPE;
    }

    @Override
    public List<Property<?>> properties() {
        return FeedSettings.PROPERTIES;
    }

    @Override
    public void check(Configuration configuration) {
        FeedSettings.read(configuration);
    }

    @Override
    public boolean completeAtPublish() {
        return true;
    }

    @Override
    public Optional<Duration> deliveredRetention(Configuration configuration) {
        return Optional.of(configuration.get(FeedSettings.RETENTION));
    }

    /** Returns empty: nothing delivers a feed's entries, clients read them. */
    @Override
    public Optional<MessageDeliverer> create(TransportContext context) {
        return Optional.empty();
    }
}
