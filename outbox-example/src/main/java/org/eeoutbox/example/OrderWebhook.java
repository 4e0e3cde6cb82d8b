package org.eeoutbox.example;

// The quick start of README.md, verbatim between the two marker lines: ReadmeQuickStartTest fails
// when the README's copy differs. Not called by the service itself (OrderService is).
// README quick start: begin
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.sql.SQLException;
import java.util.UUID;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxPublisher;
import org.eeoutbox.http.HttpDelivery;

@ApplicationScoped
public class OrderWebhook {

    @Inject OrderRepository orders;   // your own data, through the same DataSource
    @Inject OutboxPublisher outbox;

    @Transactional(rollbackOn = Exception.class)
    public UUID place(Order order) throws SQLException {
        orders.insert(order);             // the order row and the outbox row commit together
        return outbox.publish(new OutboxMessage("order.created", "{\"id\":\"" + order.id() + "\"}"),
                HttpDelivery.to("webhooks").path("/hooks/orders").build());
    }
}
// README quick start: end
