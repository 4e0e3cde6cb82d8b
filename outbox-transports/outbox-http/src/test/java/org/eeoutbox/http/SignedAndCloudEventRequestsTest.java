package org.eeoutbox.http;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookVerificationException;
import io.cloudevents.CloudEvent;
import io.cloudevents.SpecVersion;
import io.cloudevents.http.HttpMessageFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.TraceContext;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.testkit.HttpReceiver;
import org.eeoutbox.testkit.ReceivedRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Signed webhooks and CloudEvents, each checked against an independent implementation: the
 * Standard Webhooks Java library verifies the signatures (and its published test vector checks
 * the signer alone); the CloudEvents Java SDK parses the events. Real HTTP server in this JVM.
 */
@ParameterizedClass(name = "[{0}]")
@EnumSource(HttpClientKind.class)
class SignedAndCloudEventRequestsTest {

    @Parameter
    HttpClientKind client;

    /** The example of the Standard Webhooks specification and its libraries' tests. */
    private static final String SPEC_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String OLD_SECRET = "whsec_" + "b2xkLXNlY3JldC1vbGQtc2VjcmV0LW9sZC1zZWNyZXQ=";
    private static final String PAYLOAD = "{\"order\":42,\"note\":\"caf\u00e9 \\\"quoted\\\"\"}";
    private static final URI SOURCE = URI.create("https://orders.example.com/outbox");

    private static ExecutorService executor;
    private HttpReceiver receiver;
    private HttpMessageDeliverer deliverer;

    @BeforeAll
    static void startExecutor() {
        executor = Executors.newFixedThreadPool(2);
    }

    @AfterAll
    static void stopExecutor() {
        executor.shutdownNow();
    }

    @BeforeEach
    void startReceiver() {
        receiver = HttpReceiver.builder().start();
    }

    @AfterEach
    void stop() {
        if (deliverer != null) {
            deliverer.close();
        }
        receiver.close();
    }

    @Test
    void theSignerReproducesTheSpecificationsTestVector() {
        String signature = WebhookSigner.of(List.of(SPEC_SECRET))
                .sign("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330L, "{\"test\": 2432232314}");

        assertEquals("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=", signature);
    }

    @Test
    void aSignedRequestVerifiesWithTheReferenceLibraryAndARetryIsSignedAnew() throws Exception {
        MutableClock clock = new MutableClock(Instant.now());
        deliverer = deliverer(clock, new HttpServiceOptions(WebhookSigner.of(List.of(SPEC_SECRET)), null, null));
        receiver.respond("/hooks", 503);
        OutboxEntry entry = entry();

        assertTrue(deliverer.deliver(entry) instanceof DeliveryResult.RetriableFailure);
        clock.advanceSeconds(30);
        receiver.respond("/hooks", 200);
        assertEquals(DeliveryResult.delivered(), deliverer.deliver(entry.toRetry(clock.instant(), clock.instant(), "503")));

        List<ReceivedRequest> requests = receiver.requests("/hooks");
        assertEquals(2, requests.size());
        for (ReceivedRequest request : requests) {
            assertEquals(entry.id().toString(), request.header("webhook-id"));
            assertDoesNotThrow(() -> new Webhook(SPEC_SECRET).verify(request.body(), request.headers()));
        }
        assertEquals(30, Long.parseLong(requests.get(1).header("webhook-timestamp"))
                - Long.parseLong(requests.get(0).header("webhook-timestamp")), "the retry carries its own timestamp");
        assertNotEquals(requests.get(0).header("webhook-signature"), requests.get(1).header("webhook-signature"));
        assertThrows(WebhookVerificationException.class, () -> new Webhook(SPEC_SECRET).verify(
                requests.get(0).body() + " ", requests.get(0).headers()), "the signature covers the body");
    }

    @Test
    void duringARotationEachSecretAloneVerifies() {
        deliverer = deliverer(Clock.systemUTC(),
                new HttpServiceOptions(WebhookSigner.of(List.of(SPEC_SECRET, OLD_SECRET)), null, null));

        assertEquals(DeliveryResult.delivered(), deliverer.deliver(entry()));

        ReceivedRequest request = receiver.requests("/hooks").get(0);
        assertEquals(2, request.header("webhook-signature").split(" ").length);
        assertDoesNotThrow(() -> new Webhook(SPEC_SECRET).verify(request.body(), request.headers()));
        assertDoesNotThrow(() -> new Webhook(OLD_SECRET).verify(request.body(), request.headers()));
        assertThrows(WebhookVerificationException.class, () -> new Webhook(
                "whsec_" + "c29tZW9uZS1lbHNlcy1zZWNyZXQtc29tZW9uZS1lbHNl").verify(request.body(), request.headers()));
    }

    @Test
    void binaryModeCarriesTheAttributesInHeadersTheOrderingKeyAsSubjectAndThePayloadUnchanged() {
        deliverer = deliverer(Clock.systemUTC(), new HttpServiceOptions(null, org.eeoutbox.spi.CloudEvent.Mode.BINARY,
                SOURCE));
        OutboxEntry entry = OutboxEntry.create(UUID.randomUUID(),
                new OutboxMessage("order.created", PAYLOAD).withOrderingKey("order-42"),
                HttpDelivery.to("receiver").path("/hooks").build(), Instant.now()).withOrderingSeq(1);

        assertEquals(DeliveryResult.delivered(), deliverer.deliver(entry));

        ReceivedRequest request = receiver.requests("/hooks").get(0);
        assertEquals(PAYLOAD, request.body());
        CloudEvent event = HttpMessageFactory.createReaderFromMultimap(request.headers(),
                request.body().getBytes(StandardCharsets.UTF_8)).toEvent();
        assertEvent(entry, event);
        assertNull(request.header("webhook-signature"), "not signed unless a secret is configured");
    }

    @Test
    void structuredModeSendsOneJsonEnvelopeThatSignaturesCover() {
        deliverer = deliverer(Clock.systemUTC(), new HttpServiceOptions(WebhookSigner.of(List.of(SPEC_SECRET)),
                org.eeoutbox.spi.CloudEvent.Mode.STRUCTURED, SOURCE));
        OutboxEntry entry = entry();

        assertEquals(DeliveryResult.delivered(), deliverer.deliver(entry));

        ReceivedRequest request = receiver.requests("/hooks").get(0);
        assertEquals("application/cloudevents+json", request.header("content-type"));
        CloudEvent event = HttpMessageFactory.createReaderFromMultimap(request.headers(),
                request.body().getBytes(StandardCharsets.UTF_8)).toEvent();
        assertEvent(entry, event);
        assertDoesNotThrow(() -> new Webhook(SPEC_SECRET).verify(request.body(), request.headers()));
    }

    @Test
    void aBadSigningSecretFailsTheConfigurationNamingThePropertyNeverTheValue() {
        String tooShort = "whsec_c2hvcnQ=";
        String notBase64 = "not base64 at all!";
        Configuration configuration = Configuration.of(Map.of(
                "outbox.http.service.orders.url", "http://127.0.0.1:9",
                "outbox.http.service.orders.signing-secret", tooShort,
                "outbox.http.service.billing.url", "http://127.0.0.1:9",
                "outbox.http.service.billing.signing-secret", SPEC_SECRET + "," + notBase64,
                "outbox.http.service.billing.cloudevents", "structured",
                "outbox.cloudevents.source", "not a uri"));

        new HttpTransportProvider().check(configuration);

        String problems = String.join("\n", configuration.problems());
        assertTrue(problems.contains("outbox.http.service.orders.signing-secret is invalid: signing secret 1 holds 5 bytes"),
                problems);
        assertTrue(problems.contains("outbox.http.service.billing.signing-secret is invalid: signing secret 2 is not valid"
                + " base64"), problems);
        assertTrue(problems.contains("outbox.cloudevents.source=not a uri is invalid"), problems);
        for (String secret : List.of(tooShort, notBase64, SPEC_SECRET, "c2hvcnQ=", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")) {
            assertFalse(problems.contains(secret), "a secret leaked into: " + problems);
        }
    }

    private static void assertEvent(OutboxEntry entry, CloudEvent event) {
        assertEquals(SpecVersion.V1, event.getSpecVersion());
        assertEquals(entry.id().toString(), event.getId());
        assertEquals("order.created", event.getType());
        assertEquals(SOURCE, event.getSource());
        assertEquals(entry.orderingKey(), event.getSubject(), "the ordering key, absent without one");
        assertEquals(OffsetDateTime.ofInstant(entry.createdAt(), ZoneOffset.UTC), event.getTime());
        assertEquals("application/json", event.getDataContentType());
        assertEquals(PAYLOAD, new String(event.getData().toBytes(), StandardCharsets.UTF_8));
        TraceContext trace = entry.traceContext();
        assertEquals(trace == null ? null : trace.traceparent(), event.getExtension("traceparent"),
                "the distributed tracing extension, absent without a trace context");
        assertEquals(trace == null ? null : trace.tracestate(), event.getExtension("tracestate"));
    }

    private HttpMessageDeliverer deliverer(Clock clock, HttpServiceOptions options) {
        return new HttpMessageDeliverer(HttpServiceResolver.of(Map.of("receiver", receiver.uri()),
                Map.of("receiver", options)), client, executor, Executors.defaultThreadFactory(), clock,
                HttpDelivererSettings.DEFAULT, null);
    }

    /** An entry whose delivery span's context is given, as the processor hands it over when it traces. */
    private static OutboxEntry entry() {
        return OutboxEntry.create(UUID.randomUUID(), new OutboxMessage("order.created", PAYLOAD),
                HttpDelivery.to("receiver").path("/hooks").build(), Instant.now())
                .withTraceContext(new TraceContext("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "a=1"));
    }

    /** A clock the test moves forward. */
    private static final class MutableClock extends Clock {
        private Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void advanceSeconds(long seconds) {
            now = now.plusSeconds(seconds);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
