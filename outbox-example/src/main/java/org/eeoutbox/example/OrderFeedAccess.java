package org.eeoutbox.example;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.SecurityContext;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eeoutbox.feed.sse.FeedAuthorizer;

/**
 * Who may follow the order feed ({@code GET /feeds/<orders.feed.channel>}, served when
 * {@code outbox.feed.sse.enabled=true}): anyone, since the example has no login; a real service
 * would check {@code security}'s principal or roles here. Every other channel is refused.
 */
@ApplicationScoped
public class OrderFeedAccess implements FeedAuthorizer {

    /** The feed channel each placed order is published to; no feed when unset. */
    public static final String CHANNEL_PROPERTY = "orders.feed.channel";

    @Inject
    @ConfigProperty(name = CHANNEL_PROPERTY)
    Optional<String> channel;

    @Override
    public boolean mayRead(String requested, SecurityContext security) {
        return channel.filter(requested::equals).isPresent();
    }
}
