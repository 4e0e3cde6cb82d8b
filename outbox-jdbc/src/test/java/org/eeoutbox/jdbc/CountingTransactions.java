package org.eeoutbox.jdbc;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.eeoutbox.spi.TransactionRunner;

/** A {@link TransactionRunner} that counts the transactions it runs through another one. */
final class CountingTransactions implements TransactionRunner {

    private final TransactionRunner delegate;
    private final AtomicInteger count = new AtomicInteger();

    CountingTransactions(TransactionRunner delegate) {
        this.delegate = delegate;
    }

    @Override
    public <T> T inNewTransaction(Supplier<T> work) {
        count.incrementAndGet();
        return delegate.inNewTransaction(work);
    }

    /** Returns how many transactions ran so far. */
    int count() {
        return count.get();
    }
}
