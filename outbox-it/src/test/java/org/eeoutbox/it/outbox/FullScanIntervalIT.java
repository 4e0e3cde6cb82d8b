package org.eeoutbox.it.outbox;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URL;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eeoutbox.it.app.TestApps;
import org.eeoutbox.it.support.ItEnvironment;
import org.eeoutbox.it.support.OrdersClient;
import org.eeoutbox.testkit.HttpReceiver;
import org.eeoutbox.testkit.ReceivedRequest;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The claim window on the server ({@code outbox.processor.full-scan-interval}): an entry due
 * before where the claims start, as one written by a transaction that committed long after
 * writing it, is left out by the claims from a due time and delivered by the next claim that
 * scans from the oldest, one interval after the last. Against PostgreSQL only: what is proven is
 * that the server's processor reads the property and runs the window; the store contract proves
 * the bound on each database.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class FullScanIntervalIT {

    /** Long enough that the test's first claims come before the first scan from the oldest after start-up. */
    private static final Duration INTERVAL = Duration.ofSeconds(30);

    /**
     * When the deployment was built ({@link System#nanoTime()}): before the processor started, so
     * before its first claim, the scan from the oldest that the interval runs from. Arquillian
     * builds a deployment just before deploying it.
     */
    private static long deploymentBuilt;

    @Deployment
    static WebArchive deployment() {
        deploymentBuilt = System.nanoTime();
        return TestApps.war("full-scan-interval",
                Map.of("outbox.processor.full-scan-interval", INTERVAL.toSeconds() + "s"));
    }

    @ArquillianResource
    URL base;

    @Test
    void anEntryDueBeforeTheClaimWindowWaitsForTheNextScanFromTheOldest() throws Exception {
        assumeTrue("postgresql".equals(ItEnvironment.databaseName()), "the server's behaviour, the same on every "
                + "database");
        HttpReceiver receiver = ItEnvironment.receiver();
        String prefix = "window-" + UUID.randomUUID();
        String path = "/window/" + prefix;
        receiver.route(path, exchange -> HttpReceiver.respond(exchange, 200, ""));
        OrdersClient orders = new OrdersClient(base);
        String first = orders.place(prefix + "-a", 1, "http", path).get(0);
        await("the first order's delivery").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> orders.state(prefix + "-a-0"), startsWith("DELIVERED "));

        // The same message again, due an hour ago: what a transaction that wrote it then commits now.
        String late = UUID.randomUUID().toString();
        try {
            copyAsDueAnHourAgo(first, late);
            orders.place(prefix + "-b", 1, "http", path);
            await("the second order's delivery").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> orders.state(prefix + "-b-0"), startsWith("DELIVERED "));
            if (System.nanoTime() - deploymentBuilt < INTERVAL.minusSeconds(5).toNanos()) {
                // A claim after the late entry's commit delivered the second order and left it out:
                // a claim from the oldest would have taken it first (it is due earlier). Timed from
                // the deployment, not from this test's start: a slow start-up must not let the
                // second scan from the oldest come inside the check (it would rightly take the entry).
                assertFalse(idsReceived(receiver, path).contains(late), "the late entry waits for a full scan");
            }

            await("the late entry's delivery by a scan from the oldest").atMost(INTERVAL.multipliedBy(2))
                    .pollInterval(Duration.ofMillis(200)).until(() -> idsReceived(receiver, path).contains(late));
            assertEquals(1, idsReceived(receiver, path).stream().filter(late::equals).count(), "delivered once");
        } finally {
            execute("DELETE FROM outbox WHERE id = CAST(? AS uuid)", late);
        }
    }

    private static List<String> idsReceived(HttpReceiver receiver, String path) {
        return receiver.requests(path).stream().map(ReceivedRequest::outboxId).toList();
    }

    /** Inserts entry {@code copy}: entry {@code original}'s message and delivery, PENDING, due an hour ago. */
    private static void copyAsDueAnHourAgo(String original, String copy) throws Exception {
        assertEquals(1, execute("""
                INSERT INTO outbox (id, message_type, payload, delivery_type, delivery_metadata, status, attempts,
                                    next_attempt_at, created_at, updated_at)
                SELECT CAST(? AS uuid), message_type, payload, delivery_type, delivery_metadata, 'PENDING', 0,
                       now() - interval '1 hour', now() - interval '1 hour', now()
                FROM outbox WHERE id = CAST(? AS uuid)""", copy, original), "the late entry is written");
    }

    /** Runs one statement on the test database, committed; returns its update count. */
    private static int execute(String sql, String... parameters) throws Exception {
        try (Connection connection = ItEnvironment.database().dataSource().getConnection();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setString(i + 1, parameters[i]);
            }
            int count = statement.executeUpdate();
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
            return count;
        }
    }
}
