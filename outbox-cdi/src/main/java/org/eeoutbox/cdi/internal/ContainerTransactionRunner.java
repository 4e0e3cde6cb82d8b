package org.eeoutbox.cdi.internal;

import java.util.Objects;
import java.util.function.Supplier;
import org.eeoutbox.spi.TransactionRunner;

/**
 * Runs each batch of the processor and the purger in a container-managed JTA transaction of its
 * own ({@link RequiresNewTransactions}), with the configured transaction timeout set on the
 * calling thread just before the boundary begins the transaction. READ COMMITTED comes from the
 * DataSource's isolation, checked at startup. Thread-safe.
 */
final class ContainerTransactionRunner implements TransactionRunner {

    private final RequiresNewTransactions boundary;
    private final TransactionTimeout timeout;

    ContainerTransactionRunner(RequiresNewTransactions boundary, TransactionTimeout timeout) {
        this.boundary = Objects.requireNonNull(boundary, "boundary");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    @Override
    public <T> T inNewTransaction(Supplier<T> work) {
        timeout.applyToNextTransaction();
        return boundary.run(work);
    }
}
