package org.eeoutbox.cdi.internal;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.function.Supplier;

/**
 * A container-managed transaction boundary: runs work in a new JTA transaction through the
 * platform's {@code @Transactional} interceptor, which suspends any current transaction, commits
 * when the work returns and rolls back when it throws.
 *
 * <p>Used instead of {@code UserTransaction.begin()}: Payara refuses {@code UserTransaction}
 * calls ("Operation not allowed") on managed-executor threads whose context was captured while
 * the application started, while the interceptor works on every thread. Thread-safe.
 */
@ApplicationScoped
public class RequiresNewTransactions {

    /** Runs {@code work} in a new transaction and returns its result after the commit. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public <T> T run(Supplier<T> work) {
        return work.get();
    }
}
