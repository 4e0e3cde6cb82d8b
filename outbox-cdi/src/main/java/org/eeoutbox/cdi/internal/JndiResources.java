package org.eeoutbox.cdi.internal;

import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.UserTransaction;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.eeoutbox.config.OutboxConfigurationException;

/**
 * The container resources, looked up by JNDI name rather than injected with {@code @Resource}:
 * the container does not process resource injection on beans that a CDI extension adds.
 * Stateless and thread-safe.
 */
final class JndiResources implements ContainerResources {

    /** The portable name of outbox-ejb's timer bean (looked up: the CDI bean may not be visible from here). */
    private static final String EJB_TIMER_TRIGGER = "java:module/EjbTimerTrigger!" + OutboxTrigger.class.getName();

    @Override
    public DataSource dataSource(String name) {
        return lookup(name, DataSource.class, OutboxSettings.DATASOURCE.name());
    }

    @Override
    public ExecutorService managedExecutor(String name) {
        return lookup(name, ManagedExecutorService.class, OutboxSettings.MANAGED_EXECUTOR.name());
    }

    @Override
    public ScheduledExecutorService managedScheduledExecutor(String name) {
        return lookup(name, ManagedScheduledExecutorService.class, OutboxSettings.SCHEDULED_EXECUTOR.name());
    }

    @Override
    public ThreadFactory managedThreadFactory() {
        return lookup("java:comp/DefaultManagedThreadFactory", ManagedThreadFactory.class, null);
    }

    @Override
    public OutboxTrigger ejbTimerTrigger() {
        try {
            return (OutboxTrigger) new InitialContext().lookup(EJB_TIMER_TRIGGER);
        } catch (NamingException | ClassCastException e) {
            throw new OutboxConfigurationException(List.of(OutboxSettings.TRIGGER.name() + "="
                    + OutboxSettings.Trigger.EJB_TIMER.propertyValue()
                    + " needs the Enterprise Beans timer of org.eeoutbox:outbox-ejb: add that dependency to the "
                    + "application, on a server with Enterprise Beans (Lite); nothing usable is bound under "
                    + EJB_TIMER_TRIGGER + " (" + e + ")"));
        }
    }

    @Override
    public TransactionSynchronizationRegistry transactionRegistry() {
        return lookup("java:comp/TransactionSynchronizationRegistry", TransactionSynchronizationRegistry.class, null);
    }

    @Override
    public UserTransaction userTransaction() {
        return lookup("java:comp/UserTransaction", UserTransaction.class, null);
    }

    /**
     * @param property the property that named the resource, or {@code null} for one every platform has
     */
    private static <T> T lookup(String name, Class<T> type, String property) {
        Object found;
        try {
            found = new InitialContext().lookup(name);
        } catch (NamingException e) {
            if (property == null) {
                throw new IllegalStateException("The platform resource " + name + " is not available: " + e, e);
            }
            throw new OutboxConfigurationException(List.of(property + "=" + name + " is invalid: nothing is bound "
                    + "under that JNDI name (" + e.getMessage() + ")"));
        }
        if (!type.isInstance(found)) {
            throw new OutboxConfigurationException(List.of((property == null ? "" : property + "=") + name
                    + " is invalid: it names a " + found.getClass().getName() + ", not a " + type.getName()));
        }
        return type.cast(found);
    }
}
