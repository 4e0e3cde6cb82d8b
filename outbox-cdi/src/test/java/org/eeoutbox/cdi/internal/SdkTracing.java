package org.eeoutbox.cdi.internal;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The real OpenTelemetry SDK for tests, as MicroProfile Telemetry's bean: every ended span is kept in {@link #finished}. */
final class SdkTracing implements AutoCloseable {

    /** The spans ended so far, in the order they ended. */
    final List<SpanData> finished = new CopyOnWriteArrayList<>();
    private final SdkTracerProvider provider = SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(new SpanExporter() {
                @Override
                public CompletableResultCode export(Collection<SpanData> spans) {
                    finished.addAll(spans);
                    return CompletableResultCode.ofSuccess();
                }

                @Override
                public CompletableResultCode flush() {
                    return CompletableResultCode.ofSuccess();
                }

                @Override
                public CompletableResultCode shutdown() {
                    return CompletableResultCode.ofSuccess();
                }
            })).build();
    /** An {@link OpenTelemetry} whose tracers are the SDK's. */
    final OpenTelemetry openTelemetry = new OpenTelemetry() {
        @Override
        public TracerProvider getTracerProvider() {
            return provider;
        }

        @Override
        public ContextPropagators getPropagators() {
            return ContextPropagators.noop();
        }
    };

    @Override
    public void close() {
        provider.shutdown();
    }
}
