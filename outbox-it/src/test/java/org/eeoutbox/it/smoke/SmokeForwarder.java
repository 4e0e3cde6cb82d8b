package org.eeoutbox.it.smoke;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eeoutbox.it.support.ItConfig;

/**
 * In-container resource of the smoke WAR: {@code POST /api/forward/{path}} posts its body and its
 * {@code x-outbox-id} header from inside Payara to the HTTP receiver (URL from MP Config) at
 * {@code /{path}} and answers the receiver's status as plain text.
 */
@Path("forward")
@RequestScoped
public class SmokeForwarder {

    @Inject
    @ConfigProperty(name = ItConfig.RECEIVER_URL)
    String receiverUrl;

    @POST
    @Path("{path}")
    public String forward(@PathParam("path") String path, @HeaderParam("x-outbox-id") String outboxId, String body)
            throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(receiverUrl + "/" + path))
                .timeout(Duration.ofSeconds(10))
                .header("x-outbox-id", outboxId)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        return Integer.toString(client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode());
    }
}
