package org.eeoutbox.it.outbox;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eeoutbox.it.app.TestApps;
import org.eeoutbox.it.support.Deployments;
import org.eeoutbox.it.support.ItConfig;
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
 * The admin REST API (outbox-admin-rest) on the real server, from outside: under a configured
 * base path, authenticated by the server's own realm (users {@code viewer}, {@code operator},
 * {@code staff} set up by each server profile), roles checked by the library's filter; and the
 * MicroProfile Health checks where the server has them.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class AdminApiIT {

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final String ADMIN = "api/ops/outbox/";

    @Deployment
    static WebArchive deployment() {
        WebArchive war = TestApps.war("admin", Map.of("outbox.admin.rest.enabled", "true",
                "outbox.admin.rest.path", "/ops/outbox", "outbox.admin.rest.viewer-role", "outbox-viewer",
                "outbox.admin.rest.operator-role", "outbox-operator", "outbox.health.max-pending-age", "3s"))
                .addAsWebInfResource("admin/web.xml", "web.xml")
                .addAsWebInfResource("admin/glassfish-web.xml", "glassfish-web.xml");
        return Deployments.addLibrariesOf(war, "org.eeoutbox.admin.rest.AdminRestSettingsProvider");
    }

    @ArquillianResource
    URL base;

    private record Answer(int status, String body) {

        JsonObject json() {
            try (JsonReader reader = Json.createReader(new StringReader(body))) {
                return reader.readObject();
            }
        }
    }

    @Test
    void aFailedEntryIsReplayedWithTheSameOutboxIdOnceTheReceiverIsFixed() throws Exception {
        HttpReceiver receiver = ItEnvironment.receiver();
        String path = "/admin/replay-" + UUID.randomUUID();
        receiver.respond(path, 404);
        String id = place(path);

        JsonObject failed = awaitStatus(id, "FAILED");
        assertEquals(1, failed.getJsonArray("failures").size(), failed.toString());
        JsonObject attempt = failed.getJsonArray("failures").getJsonObject(0);
        assertTrue(attempt.getBoolean("permanent"), attempt.toString());
        assertTrue(attempt.getString("error").contains("404"), attempt.toString());

        assertEquals(401, call("POST", "entries/" + id + "/replay", null).status(), "no credentials");
        assertEquals(403, call("POST", "entries/" + id + "/replay", "viewer").status(), "the viewer cannot change");
        assertEquals(403, call("POST", "entries/" + id + "/replay", "staff").status(), "neither role");
        assertEquals(1, receiver.requests(path).size(), "nothing was sent again by the refused calls");

        receiver.respond(path, 200);
        Answer replayed = call("POST", "entries/" + id + "/replay", "operator");
        assertEquals(200, replayed.status(), replayed.body());
        assertEquals("DONE", replayed.json().getString("outcome"));

        List<ReceivedRequest> received = receiver.await(path, 2, PATIENCE);
        assertEquals(List.of(404, 200), received.stream().map(ReceivedRequest::status).toList());
        assertEquals(List.of(id, id), received.stream().map(ReceivedRequest::outboxId).toList(),
                "delivered again with the same x-outbox-id");
        JsonObject delivered = awaitStatus(id, "DELIVERED");
        assertEquals(1, delivered.getJsonArray("failures").size(), "the history survives the replay");

        Answer again = call("POST", "entries/" + id + "/replay", "operator");
        assertEquals(409, again.status(), again.body());
        assertEquals("WRONG_STATUS", again.json().getString("outcome"));
    }

    @Test
    void theViewerReadsEntriesWithoutTheirPayloads() throws Exception {
        String id = place("/admin/read-" + UUID.randomUUID());
        awaitStatus(id, "DELIVERED");

        JsonObject asViewer = call("GET", "entries/" + id, "viewer").json();
        assertEquals("DELIVERED", asViewer.getString("status"));
        assertFalse(asViewer.containsKey("payload"), asViewer.toString());
        JsonObject asOperator = call("GET", "entries/" + id, "operator").json();
        assertTrue(asOperator.getString("payload").contains("\"order\""), asOperator.toString());

        assertEquals(403, call("GET", "entries?payload=true", "viewer").status());
        assertEquals(403, call("GET", "entries", "staff").status());
        assertEquals(401, call("GET", "entries", null).status());
        Answer page = call("GET", "entries?deliveryType=http&status=DELIVERED&size=2", "viewer");
        assertEquals(200, page.status(), page.body());
        assertTrue(page.json().getJsonArray("entries").size() <= 2, page.body());
    }

    @Test
    void hostileInputIsRefusedNamingTheParameterAndChangesNothing() throws Exception {
        HttpReceiver receiver = ItEnvironment.receiver();
        Instant start = Instant.now().minusSeconds(1);
        String path = "/admin/bulk-" + UUID.randomUUID();
        receiver.respond(path, 404);
        String first = place(path);
        String second = place(path);
        awaitStatus(first, "FAILED");
        awaitStatus(second, "FAILED");

        assertRefused("id", "GET", "entries/not-a-uuid");
        assertRefused("id", "POST", "entries/1-1-1-1-1/replay");
        assertRefused("status", "GET", "entries?status=LOST");
        assertRefused("size", "GET", "entries?size=201");
        assertRefused("createdFrom", "GET", "entries?createdFrom=yesterday");
        assertRefused("after", "GET", "entries?after=forged-token");
        assertRefused("errorContains", "GET", "entries?errorContains=" + "x".repeat(600));
        assertRefused("spread", "POST", "entries/replay?status=FAILED&spread=PT25H");
        assertRefused("stuckAfter", "GET", "overview?stuckAfter=soon");
        String unknown = UUID.randomUUID().toString();
        assertEquals(404, call("GET", "entries/" + unknown, "viewer").status());
        assertEquals(404, call("POST", "entries/" + unknown + "/replay", "operator").status());

        String ours = "entries/replay?status=FAILED&createdFrom=" + URLEncoder.encode(start.toString(),
                StandardCharsets.UTF_8);
        JsonObject dryRun = call("POST", ours, "operator").json();
        assertEquals(2, dryRun.getInt("matched"), dryRun.toString());
        assertEquals(0, dryRun.getInt("changed"), "a dry run by default");
        Answer overMaximum = call("POST", ours + "&dryRun=false&maximum=1", "operator");
        assertEquals(400, overMaximum.status(), overMaximum.body());
        assertEquals("FAILED", entry(first).getString("status"), "refused above the maximum: nothing changed");
        assertEquals("FAILED", entry(second).getString("status"));

        receiver.respond(path, 200);
        JsonObject replayed = call("POST", ours + "&dryRun=false&maximum=2", "operator").json();
        assertEquals(2, replayed.getInt("changed"), replayed.toString());
        awaitStatus(first, "DELIVERED");
        awaitStatus(second, "DELIVERED");
    }

    /**
     * Pause and resume, and readiness on the real server: this deployment sets
     * {@code outbox.health.max-pending-age=3s}, so an entry held by a pause makes readiness DOWN
     * (the database-probe half of readiness is covered by {@code OutboxProbesTest}: stopping the
     * embedded database would take it from every other test of the run) while liveness stays UP.
     */
    @Test
    void aPauseHoldsDeliveryAndAnOldBacklogMakesReadinessDownWhenAThresholdIsSet() throws Exception {
        boolean health = Boolean.getBoolean(ItConfig.SERVER_HEALTH);
        HttpReceiver receiver = ItEnvironment.receiver();
        String path = "/admin/paused-" + UUID.randomUUID();
        if (health) {
            // readiness is DOWN ("not probed yet") until the first database probe after deployment
            await().atMost(PATIENCE).untilAsserted(() -> assertHealth("ready", 200, "UP"));
        }
        assertEquals(403, call("POST", "delivery-types/http/pause", "viewer").status());
        try {
            Answer paused = call("POST", "delivery-types/http/pause", "operator");
            assertEquals(200, paused.status(), paused.body());
            assertEquals("http", paused.json().getJsonArray("paused").getJsonObject(0).getString("deliveryType"));
            assertEquals("operator", call("GET", "paused", "viewer").json().getJsonArray("paused").getJsonObject(0)
                    .getString("pausedBy"));

            String id = place(path);
            Thread.sleep(1500);
            assertEquals(0, receiver.requests(path).size(), "paused: nothing delivered");
            assertEquals("PENDING", entry(id).getString("status"));
            if (health) {
                await().atMost(PATIENCE).untilAsserted(() -> assertHealth("ready", 503, "DOWN"));
                assertHealth("live", 200, "UP");
            }
        } finally {
            assertEquals(200, call("POST", "delivery-types/http/resume", "operator").status());
        }
        receiver.await(path, 1, PATIENCE);
        assertEquals(0, call("GET", "paused", "viewer").json().getJsonArray("paused").size());
        if (health) {
            await().atMost(PATIENCE).untilAsserted(() -> assertHealth("ready", 200, "UP"));
        }
    }

    @Test
    void healthIsUpWithTheDatabaseReachable() throws Exception {
        assumeTrue(Boolean.getBoolean(ItConfig.SERVER_HEALTH), "the server has no MicroProfile Health");

        assertHealth("live", 200, "UP");
        await().atMost(PATIENCE).untilAsserted(() -> assertHealth("ready", 200, "UP"));
        assertTrue(health("ready").body().contains("reachable"), health("ready").body());
        assertHealth("started", 200, "UP");
    }

    private void assertHealth(String kind, int status, String outboxStatus) throws Exception {
        Answer answer = health(kind);
        assertEquals(status, answer.status(), () -> answer.body() + "; the newest pending entries: " + pending());
        JsonObject outbox = answer.json().getJsonArray("checks").stream().map(check -> check.asJsonObject())
                .filter(check -> check.getString("name").equals("outbox")).findFirst().orElseThrow();
        assertEquals(outboxStatus, outbox.getString("status"), outbox.toString());
    }

    /** What readiness saw, when it is not what a test expected: the newest pending entries. */
    private String pending() {
        try {
            return call("GET", "entries?status=PENDING&size=5", "viewer").body();
        } catch (Exception e) {
            return "(not listed: " + e + ")";
        }
    }

    private Answer health(String kind) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(base.toString()).resolve("/health/" + kind)).GET());
    }

    private void assertRefused(String parameter, String method, String path) throws Exception {
        Answer answer = call(method, path, "operator");
        assertEquals(400, answer.status(), answer.body());
        assertEquals(parameter, answer.json().getString("parameter"), answer.body());
    }

    private JsonObject awaitStatus(String id, String status) {
        return await().atMost(PATIENCE).until(() -> entry(id), entry -> status.equals(entry.getString("status")));
    }

    private JsonObject entry(String id) throws Exception {
        Answer answer = call("GET", "entries/" + id, "operator");
        assertEquals(200, answer.status(), answer.body());
        return answer.json();
    }

    private String place(String path) throws Exception {
        String query = "prefix=admin-" + UUID.randomUUID() + "&count=1&transport=http&path=" + path;
        Answer answer = send(HttpRequest.newBuilder(URI.create(base + "api/orders?" + query))
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(200, answer.status(), answer.body());
        return answer.body().strip();
    }

    /** Calls the admin API as {@code user} (password: the user name with {@code -pw}), or with no credentials. */
    private Answer call(String method, String path, String user) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + ADMIN + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (user != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder()
                    .encodeToString((user + ":" + user + "-pw").getBytes(StandardCharsets.UTF_8)));
        }
        return send(request);
    }

    private static Answer send(HttpRequest.Builder request) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(request.timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), response.body());
    }
}
