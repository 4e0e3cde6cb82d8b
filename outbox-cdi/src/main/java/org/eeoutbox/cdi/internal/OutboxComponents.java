package org.eeoutbox.cdi.internal;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.OutboxPublisher;
import org.eeoutbox.admin.OutboxAdmin;
import org.eeoutbox.engine.OutboxProcessor;
import org.eeoutbox.engine.OutboxPurger;
import org.eeoutbox.spi.FeedStore;
import org.eeoutbox.spi.OutboxStats;
import org.eeoutbox.spi.OutboxStore;
import org.eeoutbox.spi.TransactionRunner;

/**
 * The outbox's parts, built by {@link OutboxAssembly} and started and stopped here: {@link #start}
 * schedules the processor and the purger, {@link #stop} cancels them, waits for running batches
 * and closes the transports. Building has no effect a stop must undo except the transports.
 *
 * @param settings     the settings in force
 * @param databaseName the store's dialect, for the log
 * @param store        the outbox table
 * @param transactions runs each batch in a new container transaction
 * @param publisher    what applications inject
 * @param admin        the operations API applications inject
 * @param feeds        reads feed channels, each call in a transaction of its own
 * @param processor    present when {@code outbox.processor.enabled}
 * @param purger       present when {@code outbox.purger.enabled}
 * @param deliverers   the application's and the transports' deliverers
 * @param transports   the transports' deliverers, closed on stop
 * @param tasks        runs the periodic and one-off tasks on the managed executor
 * @param clock        the outbox's clock
 * @param probes       what the health checks read: the last poll, the last database probe
 */
record OutboxComponents(OutboxSettings settings, String databaseName, OutboxStore store,
                        TransactionRunner transactions, OutboxPublisher publisher, OutboxAdmin admin, FeedStore feeds,
                        Optional<OutboxProcessor> processor,
                        Optional<OutboxPurger> purger, List<MessageDeliverer> deliverers,
                        List<MessageDeliverer> transports, OutboxTasks tasks, Clock clock, OutboxProbes probes) {

    private static final Logger LOG = System.getLogger(OutboxComponents.class.getName());
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    OutboxComponents {
        deliverers = List.copyOf(deliverers);
        transports = List.copyOf(transports);
    }

    /** Schedules the processor and the purger. Called once. */
    void start() {
        processor.ifPresent(p -> tasks.every("processor", Duration.ZERO, settings.pollInterval(), () -> {
            try {
                p.drain();
            } finally {
                probes.pollCompleted();
            }
        }));
        purger.ifPresent(p -> tasks.every("purger", settings.purgeInterval(), settings.purgeInterval(), p::purge));
        LOG.log(Level.INFO, "Outbox started on {0} ({1}): processor {2}, delivery types {3}, trigger {4}",
                settings.dataSource(), databaseName,
                processor.isPresent() ? "every " + settings.pollInterval() : "disabled",
                deliverers.stream().map(MessageDeliverer::deliveryType).toList(), settings.trigger().propertyValue());
    }

    /**
     * Calls {@code consumer} with fresh counts every {@code outbox.metrics.refresh-interval}, each
     * read in a transaction of its own; each read is also the database probe of {@link #probes}.
     */
    void refreshStats(Consumer<OutboxStats> consumer) {
        tasks.every("stats", Duration.ZERO, settings.statsInterval(), () -> {
            OutboxStats stats;
            try {
                stats = transactions.inNewTransaction(() -> store.stats(clock.instant()));
            } catch (RuntimeException e) {
                probes.probeFailed(e);
                throw e;
            }
            probes.probed(stats);
            consumer.accept(stats);
        });
    }

    /** Stops the schedules, waits for running batches, closes the transports. Idempotent. */
    void stop() {
        processor.ifPresent(OutboxProcessor::stop);
        if (!tasks.stop(STOP_TIMEOUT)) {
            LOG.log(Level.WARNING, "Outbox tasks still running after {0}; their transactions time out", STOP_TIMEOUT);
        }
        Transports.close(transports);
        LOG.log(Level.INFO, "Outbox stopped");
    }
}
