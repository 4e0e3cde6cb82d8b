package org.eeoutbox.cdi.internal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eeoutbox.spi.OutboxStats;

/**
 * What the health checks report, recorded by the outbox's own tasks so that answering a health
 * request never touches the database: when the processor's last scheduled poll completed (with
 * or without an error), and the outcome of the last database probe (the stats read every
 * {@code outbox.metrics.refresh-interval}). Thread-safe: each record is one volatile write.
 */
final class OutboxProbes {

    /** The outcome of one database probe: the counts read, or the error. */
    record Probe(Instant at, OutboxStats stats, String error) {

        boolean succeeded() {
            return error == null;
        }
    }

    private final Clock clock;
    private final Instant created;
    private volatile Instant lastPoll;
    private volatile Probe lastProbe;

    OutboxProbes(Clock clock) {
        this.clock = clock;
        this.created = clock.instant();
    }

    /** Records that a scheduled poll completed, successfully or not. */
    void pollCompleted() {
        lastPoll = clock.instant();
    }

    /** Records a database probe that read {@code stats}. */
    void probed(OutboxStats stats) {
        lastProbe = new Probe(clock.instant(), stats, null);
    }

    /** Records a database probe that failed with {@code error}. */
    void probeFailed(RuntimeException error) {
        lastProbe = new Probe(clock.instant(), null, String.valueOf(error));
    }

    /** A health verdict with the data that explains it, in order. */
    record Verdict(boolean up, Map<String, String> data) {
    }

    /**
     * Liveness: UP unless the processor runs on this instance and no scheduled poll has completed
     * for {@link #pollDeadline} (a hung loop; a restart helps). A failing database does not make
     * it DOWN: polls that fail still complete.
     */
    Verdict liveness(OutboxSettings settings) {
        if (!settings.processorEnabled()) {
            return new Verdict(true, Map.of("processor", "disabled"));
        }
        Instant last = lastPoll;
        Duration since = Duration.between(last == null ? created : last, clock.instant());
        Duration deadline = pollDeadline(settings);
        Map<String, String> data = new LinkedHashMap<>();
        data.put("lastPollCompleted", last == null ? "never" : last.toString());
        data.put("deadline", deadline.toString());
        return new Verdict(since.compareTo(deadline) <= 0, data);
    }

    /**
     * Readiness: UP when the last database probe succeeded and ended within
     * {@link #probeDeadline}, and, only when {@code outbox.health.max-pending-age} is set, the
     * oldest pending entry it saw is younger than that. Before the first probe: DOWN.
     */
    Verdict readiness(OutboxSettings settings) {
        Probe probe = lastProbe;
        Map<String, String> data = new LinkedHashMap<>();
        if (probe == null) {
            data.put("database", "not probed yet");
            return new Verdict(false, data);
        }
        data.put("probedAt", probe.at().toString());
        if (!probe.succeeded()) {
            data.put("database", probe.error());
            return new Verdict(false, data);
        }
        boolean fresh = Duration.between(probe.at(), clock.instant()).compareTo(probeDeadline(settings)) <= 0;
        data.put("database", fresh ? "reachable" : "no probe completed within " + probeDeadline(settings));
        boolean young = true;
        if (settings.maxPendingAge() != null) {
            Duration age = probe.stats().oldestPendingAge();
            young = age.compareTo(settings.maxPendingAge()) < 0;
            data.put("oldestPendingAge", age.toString());
            data.put("maxPendingAge", settings.maxPendingAge().toString());
        }
        return new Verdict(fresh && young, data);
    }

    /** The longest a live processor goes without completing a poll: three intervals plus the longest pass. */
    static Duration pollDeadline(OutboxSettings settings) {
        return settings.pollInterval().multipliedBy(3).plus(settings.processor().drainBudget())
                .plus(settings.transactionTimeout());
    }

    /** The oldest a probe may be for readiness: three refresh intervals. */
    static Duration probeDeadline(OutboxSettings settings) {
        return settings.statsInterval().multipliedBy(3);
    }
}
