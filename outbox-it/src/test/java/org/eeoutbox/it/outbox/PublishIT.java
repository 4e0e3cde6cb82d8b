package org.eeoutbox.it.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.inject.Inject;
import java.util.Map;
import java.util.UUID;
import org.eeoutbox.DeliveryInfo;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxPublisher;
import org.eeoutbox.http.HttpDelivery;
import org.eeoutbox.it.app.Orders;
import org.eeoutbox.it.app.TestApps;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Publishing inside the server: the outbox row shares the fate of the business transaction. */
@ExtendWith(ArquillianExtension.class)
class PublishIT {

    @Deployment
    static WebArchive deployment() {
        return TestApps.war("publish", Map.of());
    }

    @Inject
    Orders orders;

    @Inject
    OutboxPublisher outbox;

    @BeforeEach
    void createTable() throws Exception {
        orders.createTable();
    }

    @Test
    void theBusinessRowAndTheOutboxRowCommitTogether() throws Exception {
        String order = "commit-" + UUID.randomUUID();

        UUID id = orders.place(order, "http", "/orders");

        assertTrue(orders.orderExists(order));
        assertEquals(1, orders.outboxEntriesFor(order));
        assertTrue(id.version() == 7, "entry ids are time-ordered UUIDs");
    }

    @Test
    void aRollbackLeavesNeitherRow() {
        String order = "rollback-" + UUID.randomUUID();

        assertThrows(IllegalStateException.class, () -> orders.placeAndFail(order));

        assertFalse(call(() -> orders.orderExists(order)));
        assertEquals(0L, call(() -> orders.outboxEntriesFor(order)));
    }

    @Test
    void publishWithoutATransactionThrowsAndWritesNothing() throws Exception {
        String order = "no-transaction-" + UUID.randomUUID();
        OutboxMessage message = new OutboxMessage("order.created", "{}").withDeduplicationKey(order + ":created");

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> outbox.publish(message, HttpDelivery.to(Orders.RECEIVER).path("/orders").build()));

        assertTrue(e.getMessage().contains("STATUS_NO_TRANSACTION"), e.getMessage());
        assertEquals(0, orders.outboxEntriesFor(order));
    }

    @Test
    void aDeliveryTypeWithoutDelivererIsRejectedNamingIt() {
        DeliveryInfo smtp = new DeliveryInfo() {
            @Override
            public String deliveryType() {
                return "smtp";
            }

            @Override
            public String metadataJson() {
                return "{}";
            }
        };

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> outbox.publish(new OutboxMessage("order.created", "{}"), smtp));

        assertTrue(e.getMessage().contains("'smtp' has no deliverer"), e.getMessage());
    }

    private interface SqlCall<T> {
        T call() throws Exception;
    }

    private static <T> T call(SqlCall<T> call) {
        try {
            return call.call();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
