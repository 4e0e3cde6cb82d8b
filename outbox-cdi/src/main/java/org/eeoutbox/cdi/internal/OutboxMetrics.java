package org.eeoutbox.cdi.internal;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.MetricUnits;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;
import org.eclipse.microprofile.metrics.annotation.RegistryScope;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.admin.AdminAction;
import org.eeoutbox.engine.BatchReport;
import org.eeoutbox.spi.HeadFailurePolicy;

/**
 * MicroProfile Metrics for the outbox, in the application registry, each with a description
 * (the Prometheus {@code # HELP}): counters {@code outbox.delivered}, {@code outbox.retries},
 * {@code outbox.failed}, tagged {@code delivery_type} (one series per delivery type, registered at
 * zero at startup; a total is their sum), the timer {@code outbox.batch.duration}, and the gauges
 * {@code outbox.pending}, {@code outbox.failed.current}, {@code outbox.oldest.pending.age.seconds} and
 * {@code outbox.ordering.blocked.keys}, the counter {@code outbox.ordering.skipped} (failed heads the
 * {@code skip} policy went past), the counters of operators' changes {@code outbox.admin.replayed} and
 * {@code outbox.admin.discarded} (entries changed through {@link org.eeoutbox.admin.OutboxAdmin}),
 * and {@code outbox.lease.lost} (lease mode: leases that expired before their outcome was written).
 *
 * <p>The counters carry no untagged total beside the tagged series: MicroProfile Metrics 5 requires
 * every metric of one name to have the same tag names, and Prometheus sums series anyway
 * ({@code sum(outbox_delivered_total)}).
 *
 * <p>Registered by {@link org.eeoutbox.cdi.OutboxExtension} only when the Metrics API is present (no other class
 * references Metrics types, so the library deploys without it), and inert when
 * {@code outbox.metrics.enabled=false}. Counters observe the batch events fired after each commit,
 * so a rolled-back batch is never counted. Thread-safe.
 */
@ApplicationScoped
public class OutboxMetrics {

    /** The tag that tells the counters' series apart. */
    static final String DELIVERY_TYPE_TAG = "delivery_type";

    @Inject
    @RegistryScope(scope = MetricRegistry.APPLICATION_SCOPE)
    MetricRegistry registry;

    @Inject
    OutboxRuntime runtime;

    private final Map<String, Counters> counters = new ConcurrentHashMap<>();
    private volatile boolean enabled;
    private Timer batchDuration;
    private Counter replayed;
    private Counter discarded;
    private Counter skippedHeads;
    private boolean skipPolicy;
    private Counter leasesLost;

    /** Registers the metrics once the outbox has started. */
    void register(@Observes OutboxSettings started) {
        if (!started.metricsEnabled()) {
            return;
        }
        for (MessageDeliverer deliverer : runtime.start().deliverers()) {
            countersOf(deliverer.deliveryType());
        }
        batchDuration = registry.timer(Metadata.builder().withName("outbox.batch.duration")
                .withDescription("Time each committed batch took, from the claim to the commit, deliveries included")
                .withUnit(MetricUnits.SECONDS).build());
        registry.gauge(metadata("outbox.pending", "Entries waiting for delivery (PENDING, due or not), read every "
                + "outbox.metrics.refresh-interval"), runtime, r -> r.stats().pending());
        registry.gauge(metadata("outbox.failed.current", "Entries FAILED and still in the table (they are never "
                + "purged), read every outbox.metrics.refresh-interval"), runtime, r -> r.stats().failed());
        registry.gauge(metadata("outbox.oldest.pending.age.seconds", "Seconds since the oldest PENDING entry was "
                + "published, 0 when none waits, read every outbox.metrics.refresh-interval"), runtime,
                r -> r.stats().oldestPendingAge().toMillis() / 1000.0);
        registry.gauge(metadata("outbox.ordering.blocked.keys", "Ordering keys held up by a FAILED head (policy "
                + "block) until an operator replays or discards it, read every outbox.metrics.refresh-interval"),
                runtime, r -> r.stats().blockedKeys());
        skippedHeads = registry.counter(metadata("outbox.ordering.skipped", "Entries with an ordering key that "
                + "ended FAILED while their key went on without them (policy skip)"));
        skipPolicy = started.headFailurePolicy() == HeadFailurePolicy.SKIP;
        replayed = registry.counter(metadata("outbox.admin.replayed",
                "Entries an operator replayed (FAILED or DISCARDED back to PENDING) through OutboxAdmin"));
        discarded = registry.counter(metadata("outbox.admin.discarded",
                "Entries an operator discarded through OutboxAdmin"));
        leasesLost = registry.counter(metadata("outbox.lease.lost", "Lease-mode entries whose lease expired before "
                + "their outcome was written and which another claim took: each may have been delivered twice"));
        runtime.refreshStatsOnSchedule();
        enabled = true;
    }

    void count(@Observes AdminAction action) {
        if (!enabled) {
            return;
        }
        if (AdminAction.REPLAY.equals(action.action())) {
            replayed.inc(action.changed());
        } else if (AdminAction.DISCARD.equals(action.action())) {
            discarded.inc(action.changed());
        }
    }

    void count(@Observes LeasesLost lost) {
        if (enabled) {
            leasesLost.inc(lost.count());
        }
    }

    void count(@Observes BatchReport report) {
        if (!enabled) {
            return;
        }
        batchDuration.update(report.duration());
        for (BatchReport.Outcome outcome : report.outcomes()) {
            OutboxStatus status = outcome.entry().status();
            String type = outcome.entry().deliveryType();
            if (status == OutboxStatus.DELIVERED) {
                countersOf(type).delivered().inc();
            } else if (status == OutboxStatus.FAILED) {
                countersOf(type).failed().inc();
                if (skipPolicy && outcome.entry().orderingKey() != null) {
                    skippedHeads.inc();
                }
            } else if (outcome.result() instanceof DeliveryResult.RetriableFailure) {
                countersOf(type).retries().inc();
            }
        }
    }

    private record Counters(Counter delivered, Counter retries, Counter failed) {
    }

    /** The counters of one delivery type, registered on first use. */
    private Counters countersOf(String type) {
        return counters.computeIfAbsent(type, t -> {
            Tag tag = new Tag(DELIVERY_TYPE_TAG, t);
            return new Counters(
                    registry.counter(metadata("outbox.delivered", "Entries delivered, by delivery type"), tag),
                    registry.counter(metadata("outbox.retries", "Failed delivery attempts that will be retried "
                            + "(the entry stays PENDING), by delivery type"), tag),
                    registry.counter(metadata("outbox.failed", "Entries that ended FAILED (a permanent failure or "
                            + "the retries exhausted), by delivery type"), tag));
        });
    }

    private static Metadata metadata(String name, String description) {
        return Metadata.builder().withName(name).withDescription(description).build();
    }
}
