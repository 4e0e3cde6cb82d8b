package org.eeoutbox.cdi;

import jakarta.transaction.SystemException;
import jakarta.transaction.UserTransaction;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.eeoutbox.spi.TransactionRunner;

/**
 * Runs each batch of the processor and the purger in a container-managed JTA transaction of its
 * own ({@link RequiresNewTransactions}), with the configured transaction timeout.
 *
 * <p>The timeout is set with {@link UserTransaction#setTransactionTimeout} on the calling thread
 * just before the boundary begins the transaction. A server that refuses that call keeps its
 * default timeout; this is logged once. READ COMMITTED comes from the DataSource's isolation,
 * checked at startup. Thread-safe.
 */
final class ContainerTransactionRunner implements TransactionRunner {

    private static final Logger LOG = System.getLogger(ContainerTransactionRunner.class.getName());

    private final RequiresNewTransactions boundary;
    private final UserTransaction userTransaction;
    private final int timeoutSeconds;
    private final AtomicBoolean timeoutRefusalLogged = new AtomicBoolean();

    ContainerTransactionRunner(RequiresNewTransactions boundary, UserTransaction userTransaction, Duration timeout) {
        this.boundary = Objects.requireNonNull(boundary, "boundary");
        this.userTransaction = Objects.requireNonNull(userTransaction, "userTransaction");
        this.timeoutSeconds = (int) Math.min(Integer.MAX_VALUE, timeout.toSeconds());
    }

    @Override
    public <T> T inNewTransaction(Supplier<T> work) {
        setTimeout();
        return boundary.run(work);
    }

    private void setTimeout() {
        try {
            userTransaction.setTransactionTimeout(timeoutSeconds);
        } catch (SystemException | IllegalStateException e) {
            if (timeoutRefusalLogged.compareAndSet(false, true)) {
                LOG.log(Level.WARNING, "The server refused to set the outbox transaction timeout of {0} s ({1}); "
                        + "its default JTA timeout applies", timeoutSeconds, e.toString());
            }
        }
    }
}
