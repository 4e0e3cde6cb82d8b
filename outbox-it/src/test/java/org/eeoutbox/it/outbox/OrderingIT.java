package org.eeoutbox.it.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.eeoutbox.it.app.TestApps;
import org.eeoutbox.it.support.ItEnvironment;
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
 * Per-key ordering through the CDI publisher and the container's transactions: the steps of
 * several aggregates, published concurrently, reach the real receiver in each aggregate's commit
 * order, with the key and sequence headers, also when the receiver first answers 503.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class OrderingIT {

    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final int KEYS = 3;
    private static final int STEPS = 10;

    @Deployment
    static WebArchive deployment() {
        return TestApps.war("ordering", Map.of());
    }

    @ArquillianResource
    URL base;

    @Test
    void eachAggregatesStepsArriveInCommitOrderThroughAReceiverOutage() throws Exception {
        HttpReceiver receiver = ItEnvironment.receiver();
        String path = "/ordered/" + UUID.randomUUID();
        receiver.respond(path, 503);
        List<CompletableFuture<List<String>>> publishers = new ArrayList<>();
        try {
            for (int k = 0; k < KEYS; k++) {
                String key = "order-" + k + "-" + UUID.randomUUID();
                publishers.add(CompletableFuture.supplyAsync(() -> steps(key, path)));
            }
            publishers.forEach(CompletableFuture::join);
            receiver.await(path, KEYS, PATIENCE);
        } finally {
            receiver.respond(path, 200);
        }

        List<ReceivedRequest> delivered = receiver.await(
                request -> request.path().equals(path) && request.status() == 200, KEYS * STEPS, PATIENCE);
        Map<String, List<String>> arrivals = new HashMap<>();
        for (ReceivedRequest request : delivered) {
            arrivals.computeIfAbsent(request.header("x-outbox-ordering-key"), key -> new ArrayList<>())
                    .add(request.header("x-outbox-ordering-seq") + " " + request.body());
        }
        List<String> inCommitOrder = IntStream.range(0, STEPS)
                .mapToObj(step -> (step + 1) + " {\"step\":" + step + "}").toList();
        assertEquals(KEYS, arrivals.size(), arrivals.toString());
        arrivals.forEach((key, steps) -> assertEquals(inCommitOrder, steps, key));
    }

    /** Publishes the aggregate's steps through the application, each in its own transaction. */
    private List<String> steps(String key, String path) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(base + "api/orders/steps?key=" + key + "&count="
                            + STEPS + "&path=" + path))
                    .POST(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofMinutes(2)).build();
            HttpResponse<String> response = HttpClient.newHttpClient().send(request,
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());
            return List.of(response.body().split("\n"));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
