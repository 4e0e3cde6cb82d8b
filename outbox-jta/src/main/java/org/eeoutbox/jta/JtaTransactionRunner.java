package org.eeoutbox.jta;

import jakarta.transaction.HeuristicMixedException;
import jakarta.transaction.HeuristicRollbackException;
import jakarta.transaction.NotSupportedException;
import jakarta.transaction.RollbackException;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.UserTransaction;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;
import org.eeoutbox.spi.OutboxStoreException;
import org.eeoutbox.spi.TransactionRunner;

/**
 * Runs each batch of the processor and the purger in a JTA transaction of its own, begun through
 * the container's {@link UserTransaction} with a fixed timeout.
 *
 * <p>The calling thread must not have a transaction: this runner refuses with
 * {@link IllegalStateException} rather than suspend one (suspension needs the
 * non-portable {@code TransactionManager}). The engine runs it on managed executor threads, which
 * never carry one. READ COMMITTED comes from the DataSource's configured isolation, checked at
 * startup. Thread-safe.
 */
public final class JtaTransactionRunner implements TransactionRunner {

    private final UserTransaction userTransaction;
    private final int timeoutSeconds;

    /**
     * @param timeout the transaction timeout, at least one second; it must exceed the worst-case
     *                time of one batch's deliveries
     */
    public JtaTransactionRunner(UserTransaction userTransaction, Duration timeout) {
        this.userTransaction = Objects.requireNonNull(userTransaction, "userTransaction");
        if (timeout.compareTo(Duration.ofSeconds(1)) < 0 || timeout.toSeconds() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("timeout must be at least 1 s, got: " + timeout);
        }
        this.timeoutSeconds = (int) timeout.toSeconds();
    }

    @Override
    public <T> T inNewTransaction(Supplier<T> work) {
        begin();
        T result;
        try {
            result = work.get();
        } catch (RuntimeException | Error e) {
            rollback(e);
            throw e;
        }
        commit();
        return result;
    }

    private void begin() {
        try {
            int status = userTransaction.getStatus();
            if (status != Status.STATUS_NO_TRANSACTION) {
                throw new IllegalStateException("The outbox runs its batches in transactions of their own and "
                        + "must not be called inside one; found " + TransactionStatuses.name(status));
            }
            userTransaction.setTransactionTimeout(timeoutSeconds);
            userTransaction.begin();
        } catch (NotSupportedException | SystemException e) {
            throw new OutboxStoreException("Could not begin a JTA transaction", e);
        }
    }

    private void commit() {
        try {
            userTransaction.commit();
        } catch (RollbackException | HeuristicMixedException | HeuristicRollbackException | SystemException e) {
            throw new OutboxStoreException("The JTA transaction did not commit: " + e.getMessage(), e);
        }
    }

    private void rollback(Throwable cause) {
        try {
            if (userTransaction.getStatus() != Status.STATUS_NO_TRANSACTION) {
                userTransaction.rollback();
            }
        } catch (SystemException | RuntimeException rollbackFailure) {
            cause.addSuppressed(rollbackFailure);
        }
    }
}
