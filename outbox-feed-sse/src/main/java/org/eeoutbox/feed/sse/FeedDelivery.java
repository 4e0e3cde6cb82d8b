package org.eeoutbox.feed.sse;

import java.util.regex.Pattern;
import org.eeoutbox.DeliveryInfo;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.spi.FeedStore;

/**
 * Publishes to a feed channel: {@code outbox.publish(message, FeedDelivery.to("notifications"))}.
 * The event commits with the caller's transaction and is complete at once: no deliverer sends it;
 * clients read it ({@code GET <outbox.feed.sse.path>/<channel>}) by its cursor, its place in the
 * channel's commit order.
 *
 * <p>The channel is the entry's ordering key: channels share the ordering keys' namespace, so a
 * channel name must not also be the ordering key of other deliveries (their numbers would be gaps in
 * the feed). A message with an ordering key of its own is refused unless it is the channel.
 * Immutable.
 *
 * @param channel the channel's name: 1 to {@value #MAX_CHANNEL_LENGTH} letters, digits and
 *                {@code . _ ~ -} (a URL path segment as it is)
 */
public record FeedDelivery(String channel) implements DeliveryInfo {

    /** The longest channel name, that of an ordering key. */
    public static final int MAX_CHANNEL_LENGTH = OutboxMessage.MAX_KEY_LENGTH;

    private static final Pattern CHANNEL = Pattern.compile("[A-Za-z0-9._~-]{1," + MAX_CHANNEL_LENGTH + "}");

    /**
     * @throws IllegalArgumentException naming {@code channel} if it is not a valid channel name
     */
    public FeedDelivery {
        requireChannel(channel);
    }

    /** Returns a delivery to {@code channel}; see {@link FeedDelivery}. */
    public static FeedDelivery to(String channel) {
        return new FeedDelivery(channel);
    }

    /**
     * Checks a channel name.
     *
     * @throws IllegalArgumentException naming {@code channel} and giving the rule and the value
     */
    static String requireChannel(String channel) {
        if (channel == null || !CHANNEL.matcher(channel).matches()) {
            throw new IllegalArgumentException("channel must be 1 to " + MAX_CHANNEL_LENGTH
                    + " letters, digits and . _ ~ -, got: " + (channel == null ? null : "'" + channel + "'"));
        }
        return channel;
    }

    @Override
    public String deliveryType() {
        return FeedStore.DELIVERY_TYPE;
    }

    @Override
    public String metadataJson() {
        // The pattern admits no character JSON would need escaped.
        return "{\"channel\":\"" + channel + "\"}";
    }

    @Override
    public String orderingKey() {
        return channel;
    }
}
