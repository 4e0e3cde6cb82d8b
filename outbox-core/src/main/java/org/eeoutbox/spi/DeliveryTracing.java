package org.eeoutbox.spi;

import org.eeoutbox.DeliveryResult;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.TraceContext;

/**
 * The outbox's tracing: reads the trace context of a publishing transaction, and opens a span for
 * each delivery attempt. The runtime supplies one backed by OpenTelemetry when the server has a
 * tracer (MicroProfile Telemetry), else {@link #NONE}; the engine compares with {@link #NONE} and
 * then does no tracing work at all.
 *
 * <p>Implementations are thread-safe and never throw.
 */
public interface DeliveryTracing {

    /** No tracer: nothing is read at publish, no span is opened, entries are delivered as claimed. */
    DeliveryTracing NONE = new DeliveryTracing() {
        @Override
        public TraceContext current() {
            return null;
        }

        @Override
        public DeliverySpan startDelivery(OutboxEntry entry) {
            return DeliverySpan.NONE;
        }
    };

    /**
     * Returns the context of the span current on the calling thread, or {@code null} when there is
     * no valid one. Called by {@code publish}, in the publishing transaction.
     */
    TraceContext current();

    /**
     * Opens the span of one delivery attempt of {@code entry}: a child of the entry's stored
     * {@linkplain OutboxEntry#traceContext() trace context} that also links to it (a root span
     * when there is none). Every attempt, a retry or an operator's replay included, gets a span
     * of its own.
     *
     * @return the span, to be {@linkplain DeliverySpan#end ended} once with the attempt's result
     */
    DeliverySpan startDelivery(OutboxEntry entry);

    /** The span of one delivery attempt. Ended once, by the thread that knows the result. */
    interface DeliverySpan {

        /** No span: no context, and ending it does nothing. */
        DeliverySpan NONE = new DeliverySpan() {
            @Override
            public TraceContext context() {
                return null;
            }

            @Override
            public void end(DeliveryResult result) {
            }
        };

        /** Returns the span's context, which the attempt sends, or {@code null} when it has none. */
        TraceContext context();

        /** Ends the span, recording the attempt's result ({@code null}: the attempt ended without one). */
        void end(DeliveryResult result);
    }
}
