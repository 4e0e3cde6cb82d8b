package org.eeoutbox.cdi.internal;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;
import org.eclipse.microprofile.health.Startup;

/**
 * MicroProfile Health checks named {@code outbox}: liveness from the processor's last completed
 * poll, readiness from the cached database probe (and the oldest pending age when
 * {@code outbox.health.max-pending-age} is set), startup once the schema and configuration were
 * validated; see {@link OutboxProbes} for the rules. No check queries the database: a health
 * request costs nothing, and a receiver outage never makes any of them DOWN.
 *
 * <p>Registered by {@link org.eeoutbox.cdi.OutboxExtension} only when the Health API is present
 * (no other class references its types). Thread-safe.
 */
@ApplicationScoped
public class OutboxHealth {

    static final String NAME = "outbox";

    @Inject
    OutboxRuntime runtime;

    /** Starts the database probe with the outbox (the stats refresh, shared with the metrics). */
    void probe(@Observes OutboxSettings started) {
        runtime.refreshStatsOnSchedule();
    }

    /** UP while not running: a restart would not help an application that is starting or stopping. */
    @Produces
    @Liveness
    HealthCheck liveness() {
        return () -> runtime.running().map(running -> respond(running.probes().liveness(running.settings())))
                .orElseGet(() -> HealthCheckResponse.named(NAME).up().withData("outbox", "not running").build());
    }

    @Produces
    @Readiness
    HealthCheck readiness() {
        return () -> runtime.running().map(running -> respond(running.probes().readiness(running.settings())))
                .orElseGet(() -> HealthCheckResponse.named(NAME).down().withData("outbox", "not running").build());
    }

    @Produces
    @Startup
    HealthCheck startup() {
        return () -> HealthCheckResponse.named(NAME).status(runtime.running().isPresent()).build();
    }

    private static HealthCheckResponse respond(OutboxProbes.Verdict verdict) {
        HealthCheckResponseBuilder response = HealthCheckResponse.named(NAME).status(verdict.up());
        verdict.data().forEach(response::withData);
        return response.build();
    }
}
