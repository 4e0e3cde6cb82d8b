package org.eeoutbox.it.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.inject.Inject;
import java.util.Map;
import java.util.UUID;
import org.eeoutbox.cdi.internal.OutboxStartup;
import org.eeoutbox.it.app.Orders;
import org.eeoutbox.it.app.TestApps;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What undeploying the application does to the outbox: the container calls
 * {@link OutboxStartup#contextDestroyed}, and afterwards no outbox task runs and no connection of
 * the outbox holds a transaction.
 *
 * <p>The test calls the same listener the container calls on undeploy, in a running server, and
 * looks at what is left. It does not undeploy through the connector: the Payara Micro connector
 * undeploys by stopping the whole server process, after which nothing could be observed.
 */
@ExtendWith(ArquillianExtension.class)
class LifecycleIT {

    @Deployment
    static WebArchive deployment() {
        return TestApps.war("lifecycle", Map.of("outbox.processor.interval", "100ms"));
    }

    @Inject
    Orders orders;

    @Test
    void afterTheApplicationStopsNoOutboxTaskRunsAndNoTransactionStaysOpen() throws Exception {
        orders.createTable();
        String before = "before-stop-" + UUID.randomUUID();
        orders.place(before, "http", "/lifecycle");
        awaitStatus(before, "DELIVERED");

        new OutboxStartup().contextDestroyed(null);

        String after = "after-stop-" + UUID.randomUUID();
        orders.place(after, "http", "/lifecycle");
        Thread.sleep(2000);
        assertEquals("PENDING 0 null", orders.outboxState(after).orElseThrow(),
                "no poll and no wake-up ran after the stop");
        assertEquals(0, orders.otherOpenTransactions(), "no outbox connection holds a transaction");
    }

    private void awaitStatus(String order, String status) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!orders.outboxState(order).orElse("").startsWith(status)) {
            assertTrue(System.nanoTime() < deadline, order + " never became " + status);
            Thread.sleep(50);
        }
    }
}
