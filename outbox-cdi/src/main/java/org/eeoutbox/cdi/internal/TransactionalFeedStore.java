package org.eeoutbox.cdi.internal;

import java.util.List;
import java.util.Objects;
import org.eeoutbox.spi.FeedEvent;
import org.eeoutbox.spi.FeedStore;
import org.eeoutbox.spi.TransactionRunner;

/**
 * The {@link FeedStore} the feed's readers inject: each call runs in a new container transaction of
 * its own, so a reader needs none (a hub polling on a managed executor). Thread-safe.
 */
final class TransactionalFeedStore implements FeedStore {

    private final FeedStore store;
    private final TransactionRunner transactions;

    TransactionalFeedStore(FeedStore store, TransactionRunner transactions) {
        this.store = Objects.requireNonNull(store, "store");
        this.transactions = Objects.requireNonNull(transactions, "transactions");
    }

    @Override
    public List<FeedEvent> read(String channel, long afterSeq, int limit) {
        return transactions.inNewTransaction(() -> store.read(channel, afterSeq, limit));
    }

    @Override
    public long head(String channel) {
        return transactions.inNewTransaction(() -> store.head(channel));
    }

    @Override
    public boolean expired(String channel, long afterSeq) {
        return transactions.inNewTransaction(() -> store.expired(channel, afterSeq));
    }
}
