package org.eeoutbox.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Drives the test application's orders resource from a {@code @RunAsClient} test (test JVM only):
 * places orders, each publishing one message, and reads an order's outbox state.
 */
public final class OrdersClient {

    private final URL base;

    /** @param base the deployment's base URL, as Arquillian injects it */
    public OrdersClient(URL base) {
        this.base = base;
    }

    /**
     * Places {@code count} orders {@code prefix-0} to {@code prefix-(count-1)}, each publishing one
     * message over {@code transport} ({@code http} to {@code path}, or {@code kafka}).
     *
     * @return the ids {@code publish} returned, in order
     */
    public List<String> place(String prefix, int count, String transport, String path) throws Exception {
        return place(prefix, count, transport, path, Map.of());
    }

    /** As {@link #place(String, int, String, String)}, the request carrying {@code headers} (a {@code traceparent}). */
    public List<String> place(String prefix, int count, String transport, String path, Map<String, String> headers)
            throws Exception {
        String query = "prefix=" + prefix + "&count=" + count + "&transport=" + transport
                + (path == null ? "" : "&path=" + path);
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + "api/orders?" + query))
                .POST(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofMinutes(3));
        headers.forEach(builder::header);
        HttpRequest request = builder.build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return Arrays.asList(response.body().split("\n"));
    }

    /** Returns the outbox state of an order's message: {@code STATUS attempts last-error}. */
    public String state(String orderId) throws Exception {
        return get(URI.create(base + "api/orders/" + orderId + "/outbox"));
    }

    /** Returns the body of a GET. */
    public static String get(URI uri) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
        return response.body();
    }
}
