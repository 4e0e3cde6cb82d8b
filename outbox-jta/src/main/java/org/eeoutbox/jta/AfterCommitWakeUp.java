package org.eeoutbox.jta;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Objects;

/**
 * Wakes the local processor as soon as a publishing transaction commits, so delivery on the
 * publishing node does not wait for the next poll.
 *
 * <p>{@link #register()} adds one interposed {@link Synchronization} per transaction, however
 * many entries it publishes; after a commit it runs the wake-up action, which must only hand the
 * work to an executor (it runs on the committing thread, after the transaction ended). A rollback
 * wakes nothing. Thread-safe.
 */
public final class AfterCommitWakeUp {

    private static final Logger LOG = System.getLogger(AfterCommitWakeUp.class.getName());

    private final TransactionSynchronizationRegistry registry;
    private final Runnable wakeUp;
    /** This instance's key in the registry: one synchronization per transaction and per outbox. */
    private final Object key = new Object();

    public AfterCommitWakeUp(TransactionSynchronizationRegistry registry, Runnable wakeUp) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.wakeUp = Objects.requireNonNull(wakeUp, "wakeUp");
    }

    /**
     * Arranges the wake-up after the current transaction commits.
     *
     * @throws IllegalStateException if no transaction is active
     */
    public void register() {
        if (registry.getResource(key) != null) {
            return;
        }
        registry.putResource(key, Boolean.TRUE);
        registry.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                if (status != Status.STATUS_COMMITTED) {
                    return;
                }
                try {
                    wakeUp.run();
                } catch (RuntimeException e) {
                    // The transaction has committed: the poll will deliver the entries anyway.
                    LOG.log(Level.WARNING, "Could not wake the outbox processor after a commit", e);
                }
            }
        });
    }
}
