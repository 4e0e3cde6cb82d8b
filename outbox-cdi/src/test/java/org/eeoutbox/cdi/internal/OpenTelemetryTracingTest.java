package org.eeoutbox.cdi.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.eeoutbox.DeliveryInfo;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.TraceContext;
import org.eeoutbox.spi.DeliveryTracing;
import org.eeoutbox.spi.DeliveryTracing.DeliverySpan;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The OpenTelemetry tracing against the real SDK, its finished spans collected by an exporter. */
class OpenTelemetryTracingTest {

    private final SdkTracing tracing = new SdkTracing();
    private final List<SpanData> finished = tracing.finished;
    private final OpenTelemetry sdk = tracing.openTelemetry;

    @AfterEach
    void shutDown() {
        tracing.close();
    }

    @Test
    void publishReadsTheCurrentSpansContextAndNothingOutsideASpan() {
        DeliveryTracing tracing = OpenTelemetryTracing.recording(sdk);
        Span request = sdk.getTracer("test").spanBuilder("POST /orders").startSpan();
        TraceContext current;
        try (Scope ignored = request.makeCurrent()) {
            current = tracing.current();
        } finally {
            request.end();
        }

        assertEquals(request.getSpanContext().getTraceId(), current.traceId());
        assertEquals(request.getSpanContext().getSpanId(), current.spanId());
        assertTrue(current.sampled());
        assertNull(tracing.current(), "no span, nothing stored");
    }

    @Test
    void aDeliverySpanIsAChildOfThePublishedContextAndLinkedToIt() {
        DeliveryTracing tracing = OpenTelemetryTracing.recording(sdk);
        TraceContext published = new TraceContext("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
                "rojo=00f067aa0ba902b7");
        OutboxEntry entry = entry().withTraceContext(published);

        DeliverySpan first = tracing.startDelivery(entry);
        first.end(DeliveryResult.retriable("HTTP 503"));
        DeliverySpan replay = tracing.startDelivery(entry.toRetry(Instant.now(), Instant.now(), "HTTP 503"));
        replay.end(DeliveryResult.delivered());

        assertEquals(published.traceId(), first.context().traceId(), "the same trace");
        assertNotEquals(published.spanId(), first.context().spanId(), "the delivery span's own id");
        assertEquals("rojo=00f067aa0ba902b7", first.context().tracestate(), "the tracestate travels on");
        assertNotEquals(first.context().spanId(), replay.context().spanId(), "each attempt has its own span");
        assertEquals(2, finished.size());
        for (SpanData span : finished) {
            assertEquals(published.spanId(), span.getParentSpanId());
            assertEquals(SpanKind.PRODUCER, span.getKind());
            assertEquals("deliver test", span.getName());
            assertEquals(1, span.getLinks().size());
            assertEquals(published.spanId(), span.getLinks().get(0).getSpanContext().getSpanId());
            assertEquals(entry.id().toString(), span.getAttributes().get(
                    io.opentelemetry.api.common.AttributeKey.stringKey("messaging.message.id")));
        }
        assertEquals(StatusCode.ERROR, finished.get(0).getStatus().getStatusCode());
        assertEquals("HTTP 503", finished.get(0).getStatus().getDescription());
        assertEquals(StatusCode.UNSET, finished.get(1).getStatus().getStatusCode());
    }

    @Test
    void anEntryPublishedWithoutAContextGetsARootSpanWithoutLinks() {
        DeliverySpan span = OpenTelemetryTracing.recording(sdk).startDelivery(entry());
        span.end(DeliveryResult.delivered());

        assertFalse(finished.get(0).getParentSpanContext().isValid());
        assertEquals(List.of(), finished.get(0).getLinks());
        assertEquals(finished.get(0).getSpanId(), span.context().spanId());
    }

    @Test
    void aNoOpTracerMeansNoTracing() {
        assertSame(DeliveryTracing.NONE, OpenTelemetryTracing.recording(OpenTelemetry.noop()));
    }

    /** Deliveries of type {@code test}, which the spans are named after. */
    static final DeliveryInfo TEST_DELIVERY = new DeliveryInfo() {
        @Override
        public String deliveryType() {
            return "test";
        }

        @Override
        public String metadataJson() {
            return "{}";
        }
    };

    private static OutboxEntry entry() {
        return OutboxEntry.create(UUID.randomUUID(), new OutboxMessage("order.created", "{}"), TEST_DELIVERY,
                Instant.now());
    }
}
