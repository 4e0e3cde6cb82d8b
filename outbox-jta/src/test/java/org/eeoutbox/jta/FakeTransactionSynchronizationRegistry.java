package org.eeoutbox.jta;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A single-threaded transaction registry the test drives by hand: {@link #begin}, then
 * {@link #commit}, {@link #rollback} or {@link #complete}. It follows the Jakarta Transactions
 * contract where our classes rely on it: resources and synchronizations need an active
 * transaction ({@link IllegalStateException} otherwise), resources live for one transaction, and
 * completion calls every {@code beforeCompletion} before any {@code afterCompletion}, with the
 * transaction already ended. Each callback it makes is appended to {@link #events}.
 */
final class FakeTransactionSynchronizationRegistry implements TransactionSynchronizationRegistry {

    /** What happened, in order: "beforeCompletion", "afterCompletion STATUS_…", and what tests add. */
    final List<String> events = new ArrayList<>();
    final List<Synchronization> synchronizations = new ArrayList<>();
    private final Map<Object, Object> resources = new HashMap<>();
    private int status = Status.STATUS_NO_TRANSACTION;
    private Object transactionKey;

    void begin() {
        if (status != Status.STATUS_NO_TRANSACTION) {
            throw new IllegalStateException("a transaction is already running: " + TransactionStatuses.name(status));
        }
        status = Status.STATUS_ACTIVE;
        transactionKey = new Object();
    }

    /** Commits, or rolls back if the transaction is marked for rollback. */
    void commit() {
        complete(status == Status.STATUS_MARKED_ROLLBACK ? Status.STATUS_ROLLEDBACK : Status.STATUS_COMMITTED);
    }

    void rollback() {
        complete(Status.STATUS_ROLLEDBACK);
    }

    /** Ends the transaction with {@code outcome}, as a transaction manager reports it to afterCompletion. */
    void complete(int outcome) {
        requireTransaction();
        List<Synchronization> registered = List.copyOf(synchronizations);
        if (outcome == Status.STATUS_COMMITTED) {
            for (Synchronization synchronization : registered) {
                events.add("beforeCompletion");
                synchronization.beforeCompletion();
            }
        }
        status = Status.STATUS_NO_TRANSACTION;
        transactionKey = null;
        resources.clear();
        synchronizations.clear();
        for (Synchronization synchronization : registered) {
            events.add("afterCompletion " + TransactionStatuses.name(outcome));
            synchronization.afterCompletion(outcome);
        }
    }

    /** Sets any status, for example one a transaction passes through while it completes. */
    void status(int newStatus) {
        status = newStatus;
    }

    @Override
    public Object getTransactionKey() {
        return transactionKey;
    }

    @Override
    public void putResource(Object key, Object value) {
        requireTransaction();
        resources.put(key, value);
    }

    @Override
    public Object getResource(Object key) {
        requireTransaction();
        return resources.get(key);
    }

    @Override
    public void registerInterposedSynchronization(Synchronization sync) {
        if (status != Status.STATUS_ACTIVE && status != Status.STATUS_MARKED_ROLLBACK) {
            throw new IllegalStateException("no active transaction: " + TransactionStatuses.name(status));
        }
        synchronizations.add(sync);
    }

    @Override
    public int getTransactionStatus() {
        return status;
    }

    @Override
    public void setRollbackOnly() {
        requireTransaction();
        status = Status.STATUS_MARKED_ROLLBACK;
    }

    @Override
    public boolean getRollbackOnly() {
        requireTransaction();
        return status == Status.STATUS_MARKED_ROLLBACK;
    }

    private void requireTransaction() {
        if (transactionKey == null) {
            throw new IllegalStateException("no transaction");
        }
    }
}
