package org.eeoutbox.spi;

import java.util.function.Supplier;

/**
 * Runs work in a new transaction of its own, for the processor and the purger.
 *
 * <p>Implementations begin a new transaction at READ COMMITTED, run the work, commit when it
 * returns and roll back when it throws. A transaction already current on the calling thread is
 * either suspended meanwhile and resumed afterwards, or refused with
 * {@link IllegalStateException}, as each implementation documents; the engine never calls it
 * inside one. Implementations are thread-safe.
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
