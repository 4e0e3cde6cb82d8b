package org.eeoutbox.it.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eeoutbox.it.app.TestApps;
import org.eeoutbox.it.support.ItEnvironment;
import org.eeoutbox.it.support.ReceivedRequest;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The after-commit wake-up: with a one-minute poll, a publish is still delivered at once. */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class WakeUpIT {

    @Deployment
    static WebArchive deployment() {
        return TestApps.war("wake-up", Map.of("outbox.processor.interval", "60s"));
    }

    @ArquillianResource
    URL base;

    @Test
    void aCommittedPublishIsDeliveredWithinTwoSecondsDespiteAOneMinutePoll() throws Exception {
        String prefix = "wake-" + UUID.randomUUID();
        String path = "/wake/" + prefix;
        // Let the processor's first poll (at startup) pass, so only a wake-up can deliver.
        Thread.sleep(1000);

        long start = System.nanoTime();
        HttpResponse<String> placed = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(base + "api/orders?prefix=" + prefix + "&count=1&transport=http&path=" + path))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, placed.statusCode(), placed.body());
        List<ReceivedRequest> received = ItEnvironment.receiver().await(path, 1, Duration.ofSeconds(2));
        long elapsedMillis = (System.nanoTime() - start) / 1_000_000;

        assertEquals(1, received.size(), "delivered within 2 s of the request, took " + elapsedMillis + " ms");
        assertEquals(placed.body(), received.get(0).outboxId());
        assertTrue(elapsedMillis < 2000, "took " + elapsedMillis + " ms");
    }
}
