package org.eeoutbox.example;

// docs/ordering.md example: begin
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxPublisher;
import org.eeoutbox.http.HttpDelivery;

@ApplicationScoped
public class OrderLifecycle {

    @Inject OutboxPublisher outbox;

    @Transactional
    public void changed(String orderId, String step, String json) {   // "order.created", "order.paid", ...
        // The key is the aggregate: this order's steps arrive in commit order, other orders flow freely.
        outbox.publish(new OutboxMessage(step, json).withOrderingKey("order-" + orderId),
                HttpDelivery.to("shipping").path("/hooks/orders").build());
    }
}
// docs/ordering.md example: end
