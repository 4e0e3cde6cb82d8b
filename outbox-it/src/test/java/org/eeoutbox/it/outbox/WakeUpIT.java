package org.eeoutbox.it.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.eeoutbox.it.app.TestApps;
import org.eeoutbox.it.support.DirectPublisher;
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
 * The after-commit wake-up: with a one-minute poll, a publish is still delivered at once, and
 * commits made while a drain runs make it go round instead of waiting for the poll.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class WakeUpIT {

    /** Published before the deployment: with a one-minute poll, only the first poll (at startup) delivers it. */
    private static final String FIRST_POLL = "/wake/first-poll-" + UUID.randomUUID();

    @Deployment
    static WebArchive deployment() throws Exception {
        // Arquillian builds the deployment before it deploys, and before any @BeforeAll method.
        DirectPublisher.publishDue(FIRST_POLL, null);
        return TestApps.war("wake-up", Map.of("outbox.processor.interval", "60s"));
    }

    @ArquillianResource
    URL base;

    @Test
    void aCommittedPublishIsDeliveredWithinTwoSecondsDespiteAOneMinutePoll() throws Exception {
        awaitTheFirstPollAndWarmUp();

        long start = System.nanoTime();
        String path = "/wake/" + UUID.randomUUID();
        placeAndAwait(path, Duration.ofSeconds(2));
        long elapsedMillis = (System.nanoTime() - start) / 1_000_000;

        assertTrue(elapsedMillis < 2000, "published and delivered in " + elapsedMillis + " ms");
    }

    @Test
    void commitsWhileADrainRunsAreDeliveredWhenItGoesRoundNotAtTheNextPoll() throws Exception {
        awaitTheFirstPollAndWarmUp();
        String held = "/wake/held-" + UUID.randomUUID();
        CountDownLatch heldArrived = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ItEnvironment.receiver().route(held, exchange -> {
            heldArrived.countDown();
            release.await(30, TimeUnit.SECONDS);
            HttpReceiver.respond(exchange, 200, "");
        });
        OrdersClient orders = new OrdersClient(base);

        orders.place("held-" + UUID.randomUUID(), 1, "http", held);
        assertTrue(heldArrived.await(30, TimeUnit.SECONDS), "a drain is delivering the held webhook");
        // Five transactions commit while that drain runs: their wake-ups find it running.
        String path = "/wake/during-" + UUID.randomUUID();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            ids.addAll(orders.place("during-" + i + "-" + UUID.randomUUID(), 1, "http", path));
        }
        release.countDown();

        List<ReceivedRequest> received = ItEnvironment.receiver().await(path, 5, Duration.ofSeconds(10));
        assertEquals(ids, received.stream().map(ReceivedRequest::outboxId).collect(Collectors.toSet()),
                "delivered within 10 s of the running drain's end, with the next poll a minute away");
    }

    /**
     * Waits until the processor's first poll (at startup) delivered what was there before the
     * deployment, so only a wake-up can deliver within the next minute, and warms the application
     * up with a first order, so the measured ones do not pay for cold code.
     */
    private void awaitTheFirstPollAndWarmUp() throws Exception {
        ItEnvironment.receiver().await(FIRST_POLL, 1, Duration.ofSeconds(60));
        placeAndAwait("/wake/warm-up-" + UUID.randomUUID(), Duration.ofSeconds(30));
    }

    /** Places one order for delivery to {@code path} and waits for it at the receiver. */
    private void placeAndAwait(String path, Duration patience) throws Exception {
        String prefix = path.substring(path.lastIndexOf('/') + 1);
        HttpResponse<String> placed = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(base + "api/orders?prefix=" + prefix + "&count=1&transport=http&path=" + path))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, placed.statusCode(), placed.body());
        List<ReceivedRequest> received = ItEnvironment.receiver().await(path, 1, patience);
        assertEquals(placed.body(), received.get(0).outboxId());
    }
}
