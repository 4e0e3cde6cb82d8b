package org.eeoutbox.bench;

import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.RetryPolicy;
import org.eeoutbox.engine.LeaseSettings;
import org.eeoutbox.engine.OutboxListener;
import org.eeoutbox.engine.OutboxProcessor;
import org.eeoutbox.engine.ProcessorSettings;
import org.eeoutbox.jdbc.DataSourceTransactions;
import org.eeoutbox.jdbc.JdbcOutboxStore;

/**
 * The engine side of the drain benchmarks, wired as README's "Using it without a server" shows:
 * {@link DataSourceTransactions} on the measuring pool, {@link JdbcOutboxStore}, an
 * {@link OutboxProcessor} with the given deliverer, batch size and workers.
 */
final class Engine {

    /** The delivery type of the no-op deliverer. */
    static final String NOOP_TYPE = "noop";
    /** The metadata of the no-op deliverer's rows. */
    static final String NOOP_METADATA = "{}";

    private final OutboxProcessor processor;

    /**
     * @param executor runs the workers beyond the first
     */
    Engine(BenchDatabase db, MessageDeliverer deliverer, int batchSize, int workers, Executor executor) {
        this(db, deliverer, batchSize, workers, executor, false);
    }

    /**
     * @param executor runs the workers beyond the first
     * @param lease    whether the deliverer's type is claimed in lease mode (a lease of one hour)
     */
    Engine(BenchDatabase db, MessageDeliverer deliverer, int batchSize, int workers, Executor executor,
           boolean lease) {
        this(db, deliverer, batchSize, workers, executor, lease, ProcessorSettings.DEFAULT.fullScanInterval());
    }

    /**
     * @param fullScanInterval how often a claim scans from the oldest due entry
     *                         ({@link ProcessorSettings#fullScanInterval()}; zero: every claim)
     */
    Engine(BenchDatabase db, MessageDeliverer deliverer, int batchSize, int workers, Executor executor,
           boolean lease, Duration fullScanInterval) {
        this(db, deliverer, batchSize, workers, executor, lease, fullScanInterval,
                ProcessorSettings.TransportDispatch.PARALLEL);
    }

    /**
     * @param dispatch where the deliveries run ({@link ProcessorSettings#dispatch()}); with
     *                 {@code SEQUENTIAL}, a lock-mode batch is written after its deliveries, not while
     *                 they run
     */
    Engine(BenchDatabase db, MessageDeliverer deliverer, int batchSize, int workers, Executor executor,
           boolean lease, Duration fullScanInterval, ProcessorSettings.TransportDispatch dispatch) {
        ProcessorSettings settings = new ProcessorSettings(batchSize, workers, RetryPolicy.DEFAULT,
                Duration.ofHours(1), dispatch, fullScanInterval);
        DataSourceTransactions transactions = new DataSourceTransactions(db.pool());
        processor = new OutboxProcessor(new JdbcOutboxStore(transactions, db.dialect()), transactions,
                List.of(deliverer), settings, new OutboxListener() { }, executor, Clock.systemUTC(),
                lease ? new LeaseSettings(Set.of(deliverer.deliveryType()), Duration.ofHours(1), "bench")
                        : LeaseSettings.NONE);
    }

    /**
     * The engine in lock mode with sequential dispatch: each batch is delivered on the worker's
     * thread and written after its deliveries, not while they run.
     */
    static Engine sequential(BenchDatabase db, MessageDeliverer deliverer, int batchSize, int workers,
                             Executor executor) {
        return new Engine(db, deliverer, batchSize, workers, executor, false,
                ProcessorSettings.DEFAULT.fullScanInterval(), ProcessorSettings.TransportDispatch.SEQUENTIAL);
    }

    /**
     * Drains everything due and checks that exactly {@code expected} entries were processed.
     *
     * @return the number processed
     */
    long drain(int expected) {
        int processed = processor.drain();
        if (processed != expected) {
            throw new IllegalStateException("The engine processed " + processed + " entries, expected " + expected);
        }
        return processed;
    }

    /** A deliverer that delivers everything at once, for the drain-rate limit of the engine itself. */
    static MessageDeliverer noop() {
        return new MessageDeliverer() {
            @Override
            public String deliveryType() {
                return NOOP_TYPE;
            }

            @Override
            public DeliveryResult deliver(OutboxEntry entry) {
                return DeliveryResult.delivered();
            }

            @Override
            public List<DeliveryResult> deliverBatch(List<OutboxEntry> entries) {
                return Collections.nCopies(entries.size(), DeliveryResult.delivered());
            }
        };
    }
}
