package org.eeoutbox.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.eeoutbox.spi.OutboxStore;
import org.eeoutbox.spi.TransactionRunner;

/**
 * Deletes delivered entries older than the retention, then discarded entries older than theirs
 * (with their failure history), in batches, each in a new transaction of its own, until a batch
 * comes back short or the time budget is spent, so purging keeps up with publishing without long
 * transactions. Failed and pending entries are never purged. A delivery type with a retention of
 * its own (a feed's {@code outbox.feed.retention}) keeps its delivered entries that long instead.
 *
 * <p>Thread-safe; concurrent purges (from several nodes too) delete disjoint rows.
 */
public final class OutboxPurger {

    private final OutboxStore store;
    private final TransactionRunner transactions;
    private final PurgerSettings settings;
    private final Clock clock;
    private final Map<String, Duration> typeRetentions;

    public OutboxPurger(OutboxStore store, TransactionRunner transactions, PurgerSettings settings, Clock clock) {
        this(store, transactions, settings, Map.of(), clock);
    }

    /**
     * @param typeRetentions how long the delivered entries of these delivery types are kept, instead
     *                       of {@link PurgerSettings#retention()}; each {@code > 0}
     */
    public OutboxPurger(OutboxStore store, TransactionRunner transactions, PurgerSettings settings,
                        Map<String, Duration> typeRetentions, Clock clock) {
        typeRetentions.forEach((type, retention) -> {
            if (retention.isNegative() || retention.isZero()) {
                throw new IllegalArgumentException("the retention of delivery type '" + type + "' must be > 0, got: "
                        + retention);
            }
        });
        this.typeRetentions = Map.copyOf(typeRetentions);
        this.store = Objects.requireNonNull(store, "store");
        this.transactions = Objects.requireNonNull(transactions, "transactions");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Purges delivered and discarded entries past their retention; the discarded ones get what is
     * left of the time budget.
     *
     * @return the number of entries deleted
     * @throws RuntimeException what the store or the transaction runner threw; batches committed
     *                          before it stay deleted
     */
    public int purge() {
        long deadline = System.nanoTime() + settings.timeBudget().toNanos();
        Instant now = clock.instant();
        Instant deliveredBefore = now.minus(settings.retention());
        Instant keyedDeliveredBefore = now.minus(
                settings.deduplicationWindow().compareTo(settings.retention()) > 0
                        ? settings.deduplicationWindow() : settings.retention());
        Instant discardedBefore = now.minus(settings.discardedRetention());
        int purged = inBatches(deadline, () -> store.purgeDelivered(deliveredBefore, keyedDeliveredBefore,
                typeRetentions.keySet(), settings.batchSize()));
        for (Map.Entry<String, Duration> type : typeRetentions.entrySet()) {
            Instant typeBefore = now.minus(type.getValue());
            purged += inBatches(deadline, () -> store.purgeDeliveredOfType(type.getKey(), typeBefore,
                    keyedDeliveredBefore, settings.batchSize()));
        }
        return purged + inBatches(deadline, () -> store.purgeDiscarded(discardedBefore, settings.batchSize()));
    }

    /** Runs {@code batch} in new transactions until one deletes less than a batch or the deadline passes. */
    private int inBatches(long deadline, Supplier<Integer> batch) {
        int total = 0;
        int deleted;
        do {
            deleted = transactions.inNewTransaction(batch);
            total += deleted;
        } while (deleted == settings.batchSize() && System.nanoTime() - deadline < 0);
        return total;
    }
}
