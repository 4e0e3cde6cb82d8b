package org.eeoutbox.cdi.internal;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxHeaders;
import org.eeoutbox.TraceContext;
import org.eeoutbox.spi.DeliveryTracing;

/**
 * {@link DeliveryTracing} on the OpenTelemetry API, with the tracer of MicroProfile Telemetry's
 * {@code OpenTelemetry} bean. Contexts travel as W3C {@code traceparent}/{@code tracestate} only,
 * through {@link W3CTraceContextPropagator}, whatever propagators the server configures: baggage
 * is never stored. The only class of the library that references OpenTelemetry types; loaded only
 * when {@link Tracings} found the API.
 *
 * <p>A delivery span is a {@link SpanKind#PRODUCER} span named {@code deliver <delivery type>},
 * child of the entry's stored context and linked to it, with the attributes
 * {@code messaging.message.id} (the outbox id), {@code outbox.attempt}, {@code outbox.delivery_type}
 * and {@code outbox.message_type}; a failed attempt sets the status {@code ERROR} with its reason.
 * Thread-safe.
 */
final class OpenTelemetryTracing implements DeliveryTracing {

    /** The instrumentation scope the spans are reported under. */
    static final String SCOPE = "org.eeoutbox";

    private static final System.Logger LOG = System.getLogger(OpenTelemetryTracing.class.getName());
    private static final W3CTraceContextPropagator W3C = W3CTraceContextPropagator.getInstance();
    private static final TextMapSetter<Map<String, String>> SETTER = Map::put;
    private static final TextMapGetter<TraceContext> GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(TraceContext carrier) {
            return List.of(OutboxHeaders.TRACEPARENT, OutboxHeaders.TRACESTATE);
        }

        @Override
        public String get(TraceContext carrier, String key) {
            if (carrier == null) {
                return null;
            }
            return OutboxHeaders.TRACEPARENT.equals(key) ? carrier.traceparent()
                    : OutboxHeaders.TRACESTATE.equals(key) ? carrier.tracestate() : null;
        }
    };

    private final Tracer tracer;
    private final Map<String, String> spanNames = new ConcurrentHashMap<>();

    OpenTelemetryTracing(OpenTelemetry openTelemetry) {
        this.tracer = openTelemetry.getTracer(SCOPE);
    }

    /**
     * Returns the tracing of {@code openTelemetry} (an {@link OpenTelemetry}), or
     * {@link DeliveryTracing#NONE} when its tracer makes no spans, so that a disabled SDK costs the
     * outbox nothing per message.
     */
    static DeliveryTracing recording(Object openTelemetry) {
        OpenTelemetryTracing tracing = new OpenTelemetryTracing((OpenTelemetry) openTelemetry);
        if (!tracing.records()) {
            LOG.log(System.Logger.Level.INFO, "The OpenTelemetry tracer is a no-op (MicroProfile Telemetry's SDK is "
                    + "disabled: otel.sdk.disabled=true): the outbox stores no trace context");
            return DeliveryTracing.NONE;
        }
        LOG.log(System.Logger.Level.INFO, "Outbox deliveries are traced with OpenTelemetry");
        return tracing;
    }

    /**
     * Whether the tracer makes real spans: MicroProfile Telemetry's bean is a no-op while the SDK
     * is disabled ({@code otel.sdk.disabled=true}, the default of MicroProfile Telemetry), and a
     * no-op tracer's root span is invalid.
     */
    boolean records() {
        // Never ended, so never exported: a span processor sees only ended spans.
        return tracer.spanBuilder("outbox probe").setNoParent().startSpan().getSpanContext().isValid();
    }

    @Override
    public TraceContext current() {
        return traceContext(Context.current());
    }

    @Override
    public DeliverySpan startDelivery(OutboxEntry entry) {
        String type = entry.deliveryType();
        SpanBuilder builder = tracer.spanBuilder(spanNames.computeIfAbsent(type, name -> "deliver " + name))
                .setSpanKind(SpanKind.PRODUCER)
                .setAttribute("messaging.message.id", entry.id().toString())
                .setAttribute("outbox.attempt", entry.attempts() + 1L)
                .setAttribute("outbox.delivery_type", type)
                .setAttribute("outbox.message_type", entry.messageType());
        TraceContext stored = entry.traceContext();
        SpanContext published = stored == null ? SpanContext.getInvalid()
                : Span.fromContext(W3C.extract(Context.root(), stored, GETTER)).getSpanContext();
        if (published.isValid()) {
            builder.setParent(Context.root().with(Span.wrap(published))).addLink(published);
        } else {
            builder.setNoParent();
        }
        Span span = builder.startSpan();
        TraceContext context = traceContext(Context.root().with(span));
        return new DeliverySpan() {
            @Override
            public TraceContext context() {
                return context;
            }

            @Override
            public void end(DeliveryResult result) {
                if (result == null) {
                    span.setStatus(StatusCode.ERROR, "the attempt ended without a result");
                } else if (!(result instanceof DeliveryResult.Delivered)) {
                    span.setStatus(StatusCode.ERROR, reason(result));
                }
                span.end();
            }
        };
    }

    private static String reason(DeliveryResult result) {
        if (result instanceof DeliveryResult.RetriableFailure retriable) {
            return retriable.reason();
        }
        if (result instanceof DeliveryResult.PermanentFailure permanent) {
            return permanent.reason();
        }
        return result instanceof DeliveryResult.Postponed postponed ? postponed.reason() : result.toString();
    }

    /** The W3C headers of the span in {@code context}, or {@code null} when it has no valid span. */
    private static TraceContext traceContext(Context context) {
        if (!Span.fromContext(context).getSpanContext().isValid()) {
            return null;
        }
        Map<String, String> headers = new HashMap<>(4);
        W3C.inject(context, headers, SETTER);
        return TraceContext.parse(headers.get(OutboxHeaders.TRACEPARENT), headers.get(OutboxHeaders.TRACESTATE));
    }
}
