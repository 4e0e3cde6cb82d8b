package org.eeoutbox.cdi.internal;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.BeanManager;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import org.eeoutbox.spi.DeliveryTracing;

/**
 * Picks the outbox's {@link DeliveryTracing}: OpenTelemetry when the OpenTelemetry API is visible
 * to the application and a CDI {@code OpenTelemetry} bean (MicroProfile Telemetry's) resolves to a
 * tracer that records, else {@link DeliveryTracing#NONE}. No OpenTelemetry class is loaded unless
 * the API is present. Logs the choice once at {@code INFO}.
 */
final class Tracings {

    private static final Logger LOG = System.getLogger(Tracings.class.getName());
    private static final String API = "io.opentelemetry.api.OpenTelemetry";

    private Tracings() {
    }

    /** Returns the tracing of this deployment; never throws. */
    static DeliveryTracing of(BeanManager beans) {
        Class<?> api;
        try {
            api = Class.forName(API, false, Thread.currentThread().getContextClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            LOG.log(Level.INFO, "OpenTelemetry is not available: the outbox stores no trace context");
            return DeliveryTracing.NONE;
        }
        try {
            Instance<?> bean = beans.createInstance().select(api);
            if (!bean.isResolvable()) {
                LOG.log(Level.INFO, "No OpenTelemetry bean (MicroProfile Telemetry): "
                        + "the outbox stores no trace context");
                return DeliveryTracing.NONE;
            }
            return OpenTelemetryTracing.recording(bean.get());
        } catch (RuntimeException | LinkageError e) {
            LOG.log(Level.WARNING, "The OpenTelemetry bean cannot be used, the outbox stores no trace context: " + e);
            return DeliveryTracing.NONE;
        }
    }
}
