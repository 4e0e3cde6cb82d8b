package org.eeoutbox.spi;

import java.util.function.Supplier;

/**
 * Runs work in a new transaction of its own, for the processor and the purger.
 *
 * <p>Implementations suspend any transaction current on the calling thread, begin a new one at
 * READ COMMITTED, run the work, commit when it returns and roll back when it throws, then resume
 * the suspended transaction. Implementations are thread-safe.
 */
public interface TransactionRunner {

    /**
     * Runs {@code work} in a new transaction and returns its result after the commit.
     *
     * @throws RuntimeException whatever {@code work} threw (after the rollback), or an
     *                          {@link OutboxStoreException} if the transaction could not begin or
     *                          commit; then nothing of {@code work} is committed
     */
    <T> T inNewTransaction(Supplier<T> work);
}
