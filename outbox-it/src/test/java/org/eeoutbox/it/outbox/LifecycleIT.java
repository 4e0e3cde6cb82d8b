package org.eeoutbox.it.outbox;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.naming.InitialContext;
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
        // Time has passed for the outbox once the executors it used have run: 20 ticks of its
        // 100 ms poll on the managed scheduled executor (more than 2 s on a slow server), and a task
        // of the managed executor, where a wake-up of that commit would have run, submitted after it.
        awaitExecutorsRan(20, Duration.ofMillis(100));
        assertEquals("PENDING 0 null", orders.outboxState(after).orElseThrow(),
                "no poll and no wake-up ran after the stop");
        assertEquals(0, orders.otherOpenTransactions(), "no outbox connection holds a transaction");
    }

    private void awaitStatus(String order, String status) {
        await("the outbox state of " + order).atMost(Duration.ofSeconds(60)).pollInSameThread()
                .pollInterval(Duration.ofMillis(50)).until(() -> orders.outboxState(order).orElse(""), startsWith(status));
    }

    /** Waits until the default managed scheduled executor ticked {@code ticks} times and the managed executor ran a task. */
    private static void awaitExecutorsRan(int ticks, Duration interval) throws Exception {
        ManagedScheduledExecutorService scheduled = InitialContext.doLookup("java:comp/DefaultManagedScheduledExecutorService");
        ManagedExecutorService executor = InitialContext.doLookup("java:comp/DefaultManagedExecutorService");
        CountDownLatch ticked = new CountDownLatch(ticks);
        ScheduledFuture<?> ticking = scheduled.scheduleAtFixedRate(ticked::countDown, interval.toMillis(),
                interval.toMillis(), TimeUnit.MILLISECONDS);
        try {
            assertTrue(ticked.await(60, TimeUnit.SECONDS), "the managed scheduled executor ticked "
                    + (ticks - ticked.getCount()) + " of " + ticks + " times within 60 s");
        } finally {
            ticking.cancel(false);
        }
        executor.submit(() -> { }).get(60, TimeUnit.SECONDS);
    }
}
