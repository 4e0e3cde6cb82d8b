package org.eeoutbox.engine;

import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import org.eeoutbox.spi.OutboxStore;
import org.eeoutbox.spi.TransactionRunner;

/**
 * Deletes delivered entries older than the retention, in batches, each in a new transaction of
 * its own, until a batch comes back short or the time budget is spent, so purging keeps up with
 * publishing without long transactions. Failed and pending entries are never purged.
 *
 * <p>Thread-safe; concurrent purges (from several nodes too) delete disjoint rows.
 */
public final class OutboxPurger {

    private final OutboxStore store;
    private final TransactionRunner transactions;
    private final PurgerSettings settings;
    private final Clock clock;

    public OutboxPurger(OutboxStore store, TransactionRunner transactions, PurgerSettings settings, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.transactions = Objects.requireNonNull(transactions, "transactions");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Purges delivered entries past retention.
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
        int total = 0;
        int deleted;
        do {
            deleted = transactions.inNewTransaction(
                    () -> store.purgeDelivered(deliveredBefore, keyedDeliveredBefore, settings.batchSize()));
            total += deleted;
        } while (deleted == settings.batchSize() && System.nanoTime() - deadline < 0);
        return total;
    }
}
