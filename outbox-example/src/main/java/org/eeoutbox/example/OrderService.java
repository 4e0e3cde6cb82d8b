package org.eeoutbox.example;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.transaction.Transactional;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxPublisher;
import org.eeoutbox.feed.sse.FeedDelivery;
import org.eeoutbox.http.HttpDelivery;
import org.eeoutbox.kafka.KafkaDelivery;

/**
 * Places orders: saves the order and publishes {@code order.created} to the webhook receiver and
 * to a Kafka topic, all in one JTA transaction. If anything fails, nothing is saved and nothing
 * is sent; once it commits, the outbox delivers both messages, retrying until they arrive. With
 * {@code orders.feed.channel} set, the order is also published to that feed channel, which
 * browsers follow live ({@link OrderFeedAccess}).
 */
@ApplicationScoped
public class OrderService {

    /** The event's message type. */
    public static final String ORDER_CREATED = "order.created";

    /** The logical HTTP service that receives webhooks: its URL is {@code outbox.http.service.webhooks.url}. */
    public static final String WEBHOOKS = "webhooks";

    private static final Jsonb JSON = JsonbBuilder.create();

    @Inject
    OrderRepository orders;

    @Inject
    OutboxPublisher outbox;

    @Inject
    @ConfigProperty(name = "orders.webhook.path", defaultValue = "/hooks/orders")
    String webhookPath;

    @Inject
    @ConfigProperty(name = "orders.topic", defaultValue = "orders")
    String topic;

    @Inject
    @ConfigProperty(name = OrderFeedAccess.CHANNEL_PROPERTY)
    Optional<String> feedChannel;

    /**
     * Saves a new order and publishes {@code order.created} twice (webhook, Kafka), and to the
     * order feed when there is one, atomically.
     */
    @Transactional
    public Order place(NewOrder request) throws SQLException {
        Order order = new Order(UUID.randomUUID().toString(), request.customer(), request.amount(),
                Instant.now().truncatedTo(ChronoUnit.MICROS));
        orders.insert(order);
        OutboxMessage created = new OutboxMessage(ORDER_CREATED, JSON.toJson(order));
        outbox.publish(created, HttpDelivery.to(WEBHOOKS).path(webhookPath)
                .header("X-Event-Type", ORDER_CREATED)
                .build());
        outbox.publish(created, KafkaDelivery.topic(topic).key(order.id())
                .header("event-type", ORDER_CREATED)
                .build());
        // Last: a feed channel takes one publishing transaction at a time, from here to the commit.
        feedChannel.ifPresent(channel -> outbox.publish(created, FeedDelivery.to(channel)));
        return order;
    }

    /**
     * Publishes the next step of order {@code orderId}'s life (e.g. {@code order.paid}) to the
     * webhook receiver with the order as its ordering key ({@code order-ID}): an order's steps
     * arrive in the order their transactions committed, other orders flow freely (docs/ordering.md).
     * The receiver sees the key and the step's sequence in the {@code x-outbox-ordering-key} and
     * {@code x-outbox-ordering-seq} headers. It does not look the order up: the reliability
     * scenarios publish steps of orders they never placed.
     *
     * @return the outbox entry's id
     */
    @Transactional
    public UUID publishStep(String orderId, String step) {
        String json = Json.createObjectBuilder().add("id", orderId).add("step", step)
                .add("createdAt", Instant.now().truncatedTo(ChronoUnit.MICROS).toString()).build().toString();
        return outbox.publish(new OutboxMessage(step, json).withOrderingKey("order-" + orderId),
                HttpDelivery.to(WEBHOOKS).path(webhookPath).header("X-Event-Type", step).build());
    }
}
