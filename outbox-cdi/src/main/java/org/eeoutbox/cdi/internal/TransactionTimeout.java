package org.eeoutbox.cdi.internal;

import jakarta.transaction.SystemException;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.UserTransaction;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Sets the timeout of the next transaction begun on the calling thread.
 *
 * <p>The one server-specific part of the library, kept here. Jakarta EE offers this only through
 * {@link UserTransaction#setTransactionTimeout}, which Payara refuses ("Operation not allowed")
 * on managed-executor threads. The server's {@link TransactionManager} does the same without that
 * check, but no standard JNDI name exists for it: the names of Payara and GlassFish, and of
 * WildFly, are tried in turn, and any other server (Open Liberty) uses the {@code UserTransaction}.
 * A refusal is logged once; that server's default timeout then applies. Thread-safe.
 */
final class TransactionTimeout {

    private static final Logger LOG = System.getLogger(TransactionTimeout.class.getName());
    private static final List<String> TRANSACTION_MANAGERS =
            List.of("java:appserver/TransactionManager", "java:jboss/TransactionManager");

    /** The part of {@link TransactionManager} and {@link UserTransaction} used here. */
    private interface Target {
        void setTransactionTimeout(int seconds) throws SystemException;
    }

    private final Target target;
    private final String targetName;
    private final int seconds;
    private final AtomicBoolean refusalLogged = new AtomicBoolean();

    private TransactionTimeout(Target target, String targetName, int seconds) {
        this.target = target;
        this.targetName = targetName;
        this.seconds = seconds;
    }

    /** Finds the server's transaction manager, or else uses {@code userTransaction}. */
    static TransactionTimeout of(Duration timeout, UserTransaction userTransaction) {
        int seconds = (int) Math.min(Integer.MAX_VALUE, timeout.toSeconds());
        for (String name : TRANSACTION_MANAGERS) {
            try {
                if (new InitialContext().lookup(name) instanceof TransactionManager manager) {
                    return new TransactionTimeout(manager::setTransactionTimeout, name, seconds);
                }
            } catch (NamingException e) {
                // not this server
            }
        }
        return new TransactionTimeout(userTransaction::setTransactionTimeout, "java:comp/UserTransaction", seconds);
    }

    /** Applies the timeout to the next transaction this thread begins. */
    void applyToNextTransaction() {
        try {
            target.setTransactionTimeout(seconds);
        } catch (SystemException | IllegalStateException | UnsupportedOperationException e) {
            if (refusalLogged.compareAndSet(false, true)) {
                LOG.log(Level.WARNING, "The server refused to set the outbox transaction timeout of {0} s through "
                        + "{1} ({2}); its default JTA timeout applies", seconds, targetName, e.toString());
            }
        }
    }
}
