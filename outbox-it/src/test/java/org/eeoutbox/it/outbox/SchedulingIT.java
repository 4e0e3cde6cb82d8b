package org.eeoutbox.it.outbox;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.inject.Inject;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.eeoutbox.ejb.EjbTimerTrigger;
import org.eeoutbox.it.app.Orders;
import org.eeoutbox.it.app.SlowDeliverer;
import org.eeoutbox.it.app.TestApps;
import org.eeoutbox.it.support.Deployments;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The alternative driver and the batch transaction's timeout, in one deployment: polls come from
 * the Enterprise Beans timer of {@code outbox-ejb}, and a batch that outlives
 * {@code outbox.processor.transaction-timeout} is rolled back, so its outcome is not recorded.
 */
@ExtendWith(ArquillianExtension.class)
class SchedulingIT {

    private static final Duration TRANSACTION_TIMEOUT = Duration.ofSeconds(2);

    @Deployment
    static WebArchive deployment() {
        Map<String, String> properties = new HashMap<>();
        properties.put("outbox.trigger", "ejb-timer");
        // Proof that the timer drives the polls: the managed scheduled executor named here does not
        // exist, so the deployment would fail if the outbox looked it up.
        properties.put("outbox.managed-scheduled-executor", "java:comp/env/concurrent/not-bound");
        properties.put("outbox.processor.interval", "1s");
        properties.put("outbox.processor.batch-size", "10");
        properties.put("outbox.processor.transaction-timeout", TRANSACTION_TIMEOUT.toSeconds() + "s");
        // Transports bounded well below that timeout (checked at startup); no Kafka here, whose
        // send timeout is 30 s.
        properties.put("outbox.http.connect-timeout", "300ms");
        properties.put("outbox.http.request-timeout", "500ms");
        properties.put("outbox.kafka.producer.bootstrap.servers", null);
        WebArchive war = TestApps.war("scheduling", properties).addClass(SlowDeliverer.class);
        return Deployments.addLibrariesOf(war, EjbTimerTrigger.class);
    }

    @Inject
    Orders orders;

    @Inject
    SlowDeliverer slow;

    @Test
    void aBatchOutlivingItsTransactionIsRolledBackAndTheTimerRetriesIt() throws Exception {
        orders.createTable();
        String order = "timeout-" + UUID.randomUUID();
        slow.pause(TRANSACTION_TIMEOUT.multipliedBy(2));

        orders.place(order, SlowDeliverer.DELIVERY);

        // The first attempt fails at once (recorded); a poll makes the second, which takes twice
        // the timeout and so cannot commit. Once it returned, a further call proves that its batch
        // ended and the timer claimed the entry again: had its outcome (delivered) been committed,
        // or were its lock still held, no poll could claim it.
        await("the second attempt's return").atMost(Duration.ofSeconds(60)).pollInSameThread()
                .pollInterval(Duration.ofMillis(50)).until(slow::returned, greaterThanOrEqualTo(2));
        awaitCalls(slow.calls() + 1);
        assertEquals("PENDING 1 first attempt", state(order),
                "the second attempt outlived the transaction timeout, so its outcome was rolled back");

        slow.pause(Duration.ZERO);
        awaitState(order, "DELIVERED");
        assertEquals("DELIVERED 2 null", state(order),
                "only attempts whose batch committed in time count; delivery clears the last error");
    }

    private void awaitCalls(int calls) {
        await("calls of the slow deliverer").atMost(Duration.ofSeconds(60)).pollInSameThread()
                .pollInterval(Duration.ofMillis(50)).until(slow::calls, greaterThanOrEqualTo(calls));
    }

    private void awaitState(String order, String status) {
        await("the outbox state of " + order).atMost(Duration.ofSeconds(60)).pollInSameThread()
                .pollInterval(Duration.ofMillis(100)).until(() -> state(order), startsWith(status));
    }

    private String state(String order) throws Exception {
        return orders.outboxState(order).orElse("missing");
    }
}
