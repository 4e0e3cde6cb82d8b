package org.eeoutbox.cdi.internal;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Timer;
import org.eclipse.microprofile.metrics.annotation.RegistryScope;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.engine.BatchReport;

/**
 * MicroProfile Metrics for the outbox, in the application registry: counters
 * {@code outbox.delivered}, {@code outbox.retries}, {@code outbox.failed}, the timer
 * {@code outbox.batch.duration}, and the gauges {@code outbox.pending},
 * {@code outbox.failed.current} and {@code outbox.oldest.pending.age.seconds}.
 *
 * <p>Registered by {@link org.eeoutbox.cdi.OutboxExtension} only when the Metrics API is present (no other class
 * references Metrics types, so the library deploys without it), and inert when
 * {@code outbox.metrics.enabled=false}. Counters observe the batch events fired after each commit,
 * so a rolled-back batch is never counted. Thread-safe.
 */
@ApplicationScoped
public class OutboxMetrics {

    @Inject
    @RegistryScope(scope = MetricRegistry.APPLICATION_SCOPE)
    MetricRegistry registry;

    @Inject
    OutboxRuntime runtime;

    private volatile boolean enabled;
    private Counter delivered;
    private Counter retries;
    private Counter failed;
    private Timer batchDuration;

    /** Registers the metrics once the outbox has started. */
    void register(@Observes OutboxSettings started) {
        if (!started.metricsEnabled()) {
            return;
        }
        delivered = registry.counter("outbox.delivered");
        retries = registry.counter("outbox.retries");
        failed = registry.counter("outbox.failed");
        batchDuration = registry.timer("outbox.batch.duration");
        registry.gauge("outbox.pending", runtime, r -> r.stats().pending());
        registry.gauge("outbox.failed.current", runtime, r -> r.stats().failed());
        registry.gauge("outbox.oldest.pending.age.seconds", runtime, r -> r.stats().oldestPendingAge().toMillis() / 1000.0);
        runtime.refreshStatsOnSchedule();
        enabled = true;
    }

    void count(@Observes BatchReport report) {
        if (!enabled) {
            return;
        }
        batchDuration.update(report.duration());
        for (BatchReport.Outcome outcome : report.outcomes()) {
            OutboxStatus status = outcome.entry().status();
            if (status == OutboxStatus.DELIVERED) {
                delivered.inc();
            } else if (status == OutboxStatus.FAILED) {
                failed.inc();
            } else if (outcome.result() instanceof DeliveryResult.RetriableFailure) {
                retries.inc();
            }
        }
    }
}
