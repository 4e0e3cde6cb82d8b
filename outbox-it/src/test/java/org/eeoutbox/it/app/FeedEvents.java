package org.eeoutbox.it.app;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxPublisher;
import org.eeoutbox.feed.sse.FeedDelivery;

/**
 * Publishes numbered events to a feed channel for {@code FeedIT}: {@code POST api/feed-events}
 * with {@code channel}, {@code from} (the first number), {@code count}, {@code batch} (events per
 * transaction) and {@code pad} (characters of padding per payload). Each payload is
 * {@code {"i":<number>,"pad":"x…"}}, message type {@code tick}.
 */
@Path("feed-events")
@ApplicationScoped
public class FeedEvents {

    @Inject
    Batches batches;

    @POST
    @Produces(MediaType.TEXT_PLAIN)
    public String publish(@QueryParam("channel") String channel, @QueryParam("from") int from,
                          @QueryParam("count") int count, @QueryParam("batch") int batch, @QueryParam("pad") int pad) {
        String padding = "x".repeat(pad);
        int size = Math.max(1, batch);
        for (int first = from; first < from + count; first += size) {
            batches.publish(channel, first, Math.min(size, from + count - first), padding);
        }
        return Integer.toString(count);
    }

    /** One transaction per batch of events. */
    @ApplicationScoped
    public static class Batches {

        @Inject
        OutboxPublisher outbox;

        @Transactional
        public void publish(String channel, int first, int count, String padding) {
            for (int i = first; i < first + count; i++) {
                outbox.publish(new OutboxMessage("tick", "{\"i\":" + i + ",\"pad\":\"" + padding + "\"}"),
                        FeedDelivery.to(channel));
            }
        }
    }
}
