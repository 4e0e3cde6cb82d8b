package org.eeoutbox.cdi;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.UserTransaction;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.Config;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.OutboxPublisher;
import org.eeoutbox.engine.BatchReport;
import org.eeoutbox.engine.OutboxListener;
import org.eeoutbox.engine.OutboxProcessor;
import org.eeoutbox.engine.OutboxPurger;
import org.eeoutbox.engine.StoreOutboxPublisher;
import org.eeoutbox.jdbc.DatabaseCheck;
import org.eeoutbox.jdbc.JdbcOutboxStore;
import org.eeoutbox.jdbc.SqlDialect;
import org.eeoutbox.jta.AfterCommitWakeUp;
import org.eeoutbox.jta.JtaConnectionProvider;
import org.eeoutbox.jta.JtaOutboxPublisher;
import org.eeoutbox.spi.OutboxStats;
import org.eeoutbox.spi.OutboxStore;
import org.eeoutbox.spi.TransactionRunner;

/**
 * The outbox inside a Jakarta EE application: reads and checks the configuration, looks up the
 * DataSource and the managed executor, assembles store, publisher, processor and purger, and
 * schedules them when the application starts; stops them when it stops.
 *
 * <p>Startup fails the deployment with a message naming the property or the fix, for invalid
 * configuration, a missing DataSource or executor, a database check that fails (isolation, schema)
 * or two deliverers of one type. Processing events ({@link BatchReport}) are fired as CDI events
 * after each commit. Thread-safe.
 */
@ApplicationScoped
public class OutboxRuntime {

    private static final Logger LOG = System.getLogger(OutboxRuntime.class.getName());
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final String TRANSACTION_REGISTRY = "java:comp/TransactionSynchronizationRegistry";
    private static final String USER_TRANSACTION = "java:comp/UserTransaction";
    /** The portable name of outbox-ejb's timer bean (looked up: the CDI bean may not be visible from here). */
    private static final String EJB_TIMER_TRIGGER = "java:module/EjbTimerTrigger!" + OutboxTrigger.class.getName();

    @Inject
    Config config;

    @Inject
    BeanManager beanManager;

    @Inject
    Event<BatchReport> batchEvents;

    @Inject
    TransportDeliverers transports;

    @Inject
    RequiresNewTransactions requiresNew;

    /** Fired once the outbox has started, with the settings in force (metrics register then). */
    @Inject
    Event<OutboxSettings> started;

    private final Clock clock = Clock.systemUTC();
    private OutboxSettings settings;
    private OutboxScheduler scheduler;
    private OutboxStore store;
    private TransactionRunner transactions;
    private OutboxPublisher publisher;
    private OutboxProcessor processor;
    private volatile OutboxStats stats = new OutboxStats(0, 0, Duration.ZERO);

    /**
     * Produces the publisher applications inject; starts the outbox if the application has not
     * started yet.
     */
    @Produces
    @ApplicationScoped
    OutboxPublisher publisher() {
        start();
        return publisher;
    }

    /** Returns the latest counts, refreshed every {@code outbox.metrics.refresh-interval} once asked for. */
    OutboxStats stats() {
        return stats;
    }

    /** Refreshes {@link #stats()} on schedule from now on; called by the metrics integration. */
    synchronized void refreshStatsOnSchedule() {
        start();
        scheduler.every("stats", Duration.ZERO, settings.statsInterval(),
                () -> stats = transactions.inNewTransaction(() -> store.stats(clock.instant())));
    }

    /** Starts the outbox unless it runs already; see {@link OutboxStartup}. */
    synchronized void start() {
        if (settings != null) {
            return;
        }
        OutboxSettings read = OutboxSettings.read(name -> config.getOptionalValue(name, String.class));
        // Looked up rather than injected with @Resource: the container does not process resource
        // injection on beans that a CDI extension adds.
        TransactionSynchronizationRegistry registry =
                lookup(TRANSACTION_REGISTRY, TransactionSynchronizationRegistry.class, null);
        UserTransaction userTransaction = lookup(USER_TRANSACTION, UserTransaction.class, null);
        DataSource dataSource = lookup(read.dataSource(), DataSource.class, "outbox.datasource");
        OutboxTrigger trigger = trigger(read);
        // Every task runs on the growing managed executor, and so does work that waits on other
        // work (extra workers, HTTP completions): Payara's scheduled executor has a single thread.
        ManagedExecutorService asyncExecutor =
                lookup(read.asyncExecutor(), ManagedExecutorService.class, "outbox.async-executor");
        SqlDialect dialect = checkDatabase(dataSource, read);
        OutboxScheduler newScheduler = new OutboxScheduler(trigger, asyncExecutor);
        store = new JdbcOutboxStore(new JtaConnectionProvider(dataSource, registry), dialect);
        transactions = new ContainerTransactionRunner(requiresNew,
                TransactionTimeout.of(read.transactionTimeout(), userTransaction));
        List<MessageDeliverer> deliverers = deliverers(asyncExecutor);
        try {
            if (read.processorEnabled()) {
                processor = new OutboxProcessor(store, transactions, deliverers, read.processor(), listener(),
                        asyncExecutor, clock);
                checkTransactionTimeout(read, deliverers);
            }
        } catch (RuntimeException e) {
            transports.close();
            throw e;
        }
        AfterCommitWakeUp wakeUp = new AfterCommitWakeUp(registry,
                processor == null ? () -> { } : () -> newScheduler.now("wake-up", processor::drain));
        publisher = new JtaOutboxPublisher(new StoreOutboxPublisher(store, read.maxPayloadBytes(), clock), wakeUp,
                deliverers.stream().map(MessageDeliverer::deliveryType).collect(Collectors.toSet()));
        if (processor != null) {
            newScheduler.every("processor", Duration.ZERO, read.pollInterval(), processor::drain);
        }
        if (read.purgerEnabled()) {
            OutboxPurger purger = new OutboxPurger(store, transactions, read.purger(), clock);
            newScheduler.every("purger", read.purgeInterval(), read.purgeInterval(), purger::purge);
        }
        scheduler = newScheduler;
        settings = read;
        started.fire(read);
        LOG.log(Level.INFO, "Outbox started on {0} ({1}): processor {2}, delivery types {3}, scheduler {4}",
                read.dataSource(), dialect.name(), processor == null ? "disabled" : "every " + read.pollInterval(),
                deliverers.stream().map(MessageDeliverer::deliveryType).toList(), read.scheduler().propertyValue());
    }

    /** Stops the schedules, waits for running batches, closes what the outbox created. */
    @PreDestroy
    synchronized void stop() {
        if (scheduler == null) {
            return;
        }
        if (processor != null) {
            processor.stop();
        }
        if (!scheduler.stop(STOP_TIMEOUT)) {
            LOG.log(Level.WARNING, "Outbox tasks still running after {0}; their transactions time out", STOP_TIMEOUT);
        }
        transports.close();
        scheduler = null;
        LOG.log(Level.INFO, "Outbox stopped");
    }

    private OutboxTrigger trigger(OutboxSettings read) {
        if (read.scheduler() == OutboxSettings.Scheduler.MANAGED_EXECUTOR) {
            return new ScheduledExecutorTrigger(
                    lookup(read.executor(), ManagedScheduledExecutorService.class, "outbox.executor"));
        }
        try {
            return (OutboxTrigger) new InitialContext().lookup(EJB_TIMER_TRIGGER);
        } catch (NamingException | ClassCastException e) {
            throw new OutboxConfigurationException(List.of("outbox.scheduler=" + read.scheduler().propertyValue()
                    + " needs the Enterprise Beans timer of org.eeoutbox:outbox-ejb: add that dependency to the "
                    + "application, on a server with Enterprise Beans (Lite); nothing usable is bound under "
                    + EJB_TIMER_TRIGGER + " (" + e + ")"));
        }
    }

    private List<MessageDeliverer> deliverers(ManagedExecutorService executor) {
        List<MessageDeliverer> deliverers = new ArrayList<>();
        deliverers.addAll(beanManager.getExtension(OutboxExtension.class).applicationBeans()
                .references(beanManager, MessageDeliverer.class, MessageDeliverer.class::equals));
        deliverers.addAll(transports.create(config, executor, clock));
        return deliverers;
    }

    private OutboxListener listener() {
        return new OutboxListener() {
            @Override
            public void onBatchCommitted(BatchReport report) {
                batchEvents.fire(report);
            }
        };
    }

    private static void checkTransactionTimeout(OutboxSettings read, List<MessageDeliverer> deliverers) {
        for (MessageDeliverer deliverer : deliverers) {
            Optional<Duration> worst = deliverer.maxBatchDuration(read.processor().batchSize());
            if (worst.isPresent() && worst.get().compareTo(read.transactionTimeout()) >= 0) {
                throw new OutboxConfigurationException(List.of("outbox.processor.transaction-timeout="
                        + read.transactionTimeout() + " is too short: a batch of " + read.processor().batchSize()
                        + " '" + deliverer.deliveryType() + "' deliveries may take up to " + worst.get()
                        + "; raise the timeout or lower outbox.processor.batch-size or the transport's timeouts"));
            }
        }
    }

    private static SqlDialect checkDatabase(DataSource dataSource, OutboxSettings read) {
        try {
            return DatabaseCheck.forJtaTransactions(dataSource, read.createSchema());
        } catch (SQLException e) {
            throw new IllegalStateException("outbox.datasource=" + read.dataSource() + ": cannot reach the database: "
                    + e.getMessage(), e);
        }
    }

    /**
     * Looks up a JNDI resource.
     *
     * @param property the property that named it, or {@code null} for a resource every platform has
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
