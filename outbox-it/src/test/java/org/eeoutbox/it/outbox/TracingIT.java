package org.eeoutbox.it.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.net.URL;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.eeoutbox.it.app.TestApps;
import org.eeoutbox.it.support.ItEnvironment;
import org.eeoutbox.it.support.OrdersClient;
import org.eeoutbox.it.support.ServerLog;
import org.eeoutbox.testkit.ReceivedRequest;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A request traced into {@code publish}: the application turns MicroProfile Telemetry's SDK on in its
 * own configuration (exporting nothing), the client sends a {@code traceparent}, and the receiver must
 * get the same trace with the delivery span as its parent. Every server of the suite is configured
 * to give the application a tracer (Payara Micro as shipped; WildFly with the telemetry subsystems;
 * Liberty with mpTelemetry and the third-party API visible: docs/tracing.md says what each needs).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class TracingIT {

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    /** What the outbox logs at startup when it traces deliveries. */
    static final String TRACED = "Outbox deliveries are traced with OpenTelemetry";

    @Deployment
    static WebArchive deployment() {
        return TestApps.war("tracing", Map.of("otel.sdk.disabled", "false", "otel.traces.exporter", "none",
                "otel.metrics.exporter", "none", "otel.logs.exporter", "none"));
    }

    @ArquillianResource
    URL base;

    @Test
    void theDeliveryOfATracedRequestSendsTheRequestsTraceWithTheDeliverySpanAsParent() throws Exception {
        HexFormat hex = HexFormat.of();
        String traceId = hex.formatHex(random(16));
        String clientSpan = hex.formatHex(random(8));
        String path = "/traced/" + UUID.randomUUID();

        new OrdersClient(base).place("traced-" + UUID.randomUUID(), 1, "http", path,
                Map.of("traceparent", "00-" + traceId + "-" + clientSpan + "-01"));

        ReceivedRequest received = ItEnvironment.receiver().await(path, 1, PATIENCE).get(0);
        String traceparent = received.header("traceparent");
        assertNotNull(traceparent, ServerLog.current().containsAfter(0, TRACED)
                ? "the outbox traces deliveries, yet the request arrived without a traceparent"
                : "the server gave the application no recording OpenTelemetry tracer (the log has no '" + TRACED
                        + "'): each server's configuration in this suite provides one (docs/tracing.md)");
        assertEquals(55, traceparent.length(), traceparent);
        assertEquals(traceId, traceparent.substring(3, 35), "the request's trace continues: " + traceparent);
        assertNotEquals(clientSpan, traceparent.substring(36, 52), "the parent is the delivery span");
        assertFalse(traceparent.substring(36, 52).matches("0+"), traceparent);
    }

    private static byte[] random(int length) {
        byte[] bytes = new byte[length];
        do {
            ThreadLocalRandom.current().nextBytes(bytes);
        } while (bytes[0] == 0);
        return bytes;
    }
}
