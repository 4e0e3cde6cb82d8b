package org.eeoutbox.cdi.internal;

import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.UserTransaction;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import javax.sql.DataSource;

/**
 * The container resources the outbox runs on. {@link JndiResources} looks them up in the server;
 * tests hand in their own. Each method throws
 * {@link org.eeoutbox.config.OutboxConfigurationException} naming the property when a configured
 * name leads nowhere, and {@link IllegalStateException} when a resource every platform has is
 * missing.
 */
interface ContainerResources {

    /** The DataSource named by {@code outbox.datasource}. */
    DataSource dataSource(String name);

    /** The ManagedExecutorService named by {@code outbox.managed-executor}. */
    ExecutorService managedExecutor(String name);

    /** The ManagedScheduledExecutorService named by {@code outbox.managed-scheduled-executor}. */
    ScheduledExecutorService managedScheduledExecutor(String name);

    /** The platform's default ManagedThreadFactory, for transports whose client runs threads of its own. */
    ThreadFactory managedThreadFactory();

    /** The Enterprise Beans timer trigger of {@code outbox-ejb} ({@code outbox.trigger=ejb-timer}). */
    OutboxTrigger ejbTimerTrigger();

    /** The platform's transaction synchronization registry. */
    TransactionSynchronizationRegistry transactionRegistry();

    /** The platform's user transaction, for the transaction timeout where no transaction manager is found. */
    UserTransaction userTransaction();
}
