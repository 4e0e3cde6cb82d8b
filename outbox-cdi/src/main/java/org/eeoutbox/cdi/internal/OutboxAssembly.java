package org.eeoutbox.cdi.internal;

import jakarta.transaction.TransactionSynchronizationRegistry;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Type;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.admin.AdminAction;
import org.eeoutbox.admin.OutboxAdmin;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.config.OutboxConfigurationException;
import org.eeoutbox.engine.LeaseSettings;
import org.eeoutbox.engine.OutboxListener;
import org.eeoutbox.engine.OutboxProcessor;
import org.eeoutbox.engine.OutboxPurger;
import org.eeoutbox.engine.StoreOutboxAdmin;
import org.eeoutbox.engine.StoreOutboxPublisher;
import org.eeoutbox.jdbc.DatabaseCheck;
import org.eeoutbox.jdbc.JdbcFeedStore;
import org.eeoutbox.jdbc.JdbcOutboxAdminStore;
import org.eeoutbox.jdbc.JdbcOutboxStore;
import org.eeoutbox.jdbc.SqlDialect;
import org.eeoutbox.jta.AfterCommitWakeUp;
import org.eeoutbox.jta.JtaConnectionProvider;
import org.eeoutbox.jta.JtaOutboxPublisher;
import org.eeoutbox.spi.DeliveryTracing;
import org.eeoutbox.spi.FeedStore;
import org.eeoutbox.spi.TransactionRunner;

/**
 * Builds the outbox's {@link OutboxComponents} from the checked configuration and the container's
 * resources: the one place where the parts are put together. It checks the database (isolation,
 * schema), creates the transports' deliverers and checks the transaction timeout, or in lease mode
 * the lease, against them;
 * it schedules nothing. Not thread-safe: one instance per build.
 */
final class OutboxAssembly {

    /** Returns the application's beans of a type, as a {@link TransportContext} hands them out. */
    interface ApplicationBeanSource {
        <T> List<T> beans(Class<T> as, Predicate<Type> type);
    }

    private final OutboxSettings settings;
    private final Configuration configuration;
    private final Transports transports;
    private final ContainerResources resources;
    private final RequiresNewTransactions requiresNew;
    private final ApplicationBeanSource applicationBeans;
    private final OutboxListener listener;
    private final Supplier<String> caller;
    private final Consumer<AdminAction> audit;
    private final DeliveryTracing tracing;
    private final Clock clock;

    /**
     * @param settings         the runtime's settings, read from {@code configuration}
     * @param configuration    the checked configuration, for the transports
     * @param requiresNew      the container-managed REQUIRES_NEW boundary
     * @param applicationBeans the application's beans: its deliverers, and beans transports ask for
     * @param listener         told of each committed batch
     * @param caller           the name of the caller of an operation on the outbox, or {@code null}
     * @param audit            told of each operation committed through {@link OutboxAdmin}
     * @param tracing          stores trace contexts at publish and traces deliveries, or {@link DeliveryTracing#NONE}
     */
    OutboxAssembly(OutboxSettings settings, Configuration configuration, Transports transports,
                   ContainerResources resources, RequiresNewTransactions requiresNew,
                   ApplicationBeanSource applicationBeans, OutboxListener listener, Supplier<String> caller,
                   Consumer<AdminAction> audit, DeliveryTracing tracing, Clock clock) {
        this.settings = settings;
        this.configuration = configuration;
        this.transports = transports;
        this.resources = resources;
        this.requiresNew = requiresNew;
        this.applicationBeans = applicationBeans;
        this.listener = listener;
        this.caller = caller;
        this.audit = audit;
        this.tracing = tracing;
        this.clock = clock;
    }

    /**
     * @throws OutboxConfigurationException naming the property, for a resource that is not bound,
     *         a transport that cannot be created or a transaction timeout too short for it
     * @throws IllegalStateException when the database cannot be reached or fails its check
     */
    OutboxComponents build() {
        TransactionSynchronizationRegistry registry = resources.transactionRegistry();
        DataSource dataSource = resources.dataSource(settings.dataSource());
        OutboxTrigger trigger = settings.trigger() == OutboxSettings.Trigger.EJB_TIMER ? resources.ejbTimerTrigger()
                : new ScheduledExecutorTrigger(resources.managedScheduledExecutor(settings.scheduledExecutor()));
        // Every task runs on the growing managed executor, and so does work that waits on other
        // work (extra workers, HTTP completions): Payara's scheduled executor has a single thread.
        Executor executor = resources.managedExecutor(settings.managedExecutor());
        SqlDialect dialect = checkDatabase(dataSource);
        JtaConnectionProvider connections = new JtaConnectionProvider(dataSource, registry);
        JdbcOutboxStore store = new JdbcOutboxStore(connections, dialect, settings.headFailurePolicy());
        TransactionRunner transactions = new ContainerTransactionRunner(requiresNew,
                TransactionTimeout.of(settings.transactionTimeout(), resources.userTransaction()));
        List<MessageDeliverer> created = transports.create(
                new RuntimeTransportContext(configuration, executor, resources::managedThreadFactory, clock,
                        applicationBeans));
        try {
            List<MessageDeliverer> deliverers = new ArrayList<>(applicationBeans.beans(MessageDeliverer.class,
                    MessageDeliverer.class::equals));
            deliverers.addAll(created);
            Optional<OutboxProcessor> processor = Optional.empty();
            if (settings.processorEnabled()) {
                processor = Optional.of(new OutboxProcessor(store, transactions, deliverers, settings.processor(),
                        listener, executor, clock, leaseSettings(deliverers), tracing));
            }
            Optional<OutboxPurger> purger = settings.purgerEnabled()
                    ? Optional.of(new OutboxPurger(store, transactions, settings.purger(),
                    transports.deliveredRetentions(configuration), clock)) : Optional.empty();
            OutboxTasks tasks = new OutboxTasks(trigger, executor, clock);
            Optional<Runnable> wakeProcessor = processor.map(p -> wakeUp(p, tasks));
            AfterCommitWakeUp wakeUp = new AfterCommitWakeUp(registry, () -> {
                wakeProcessor.ifPresent(Runnable::run);
                listener.onPublishCommitted();
            });
            Set<String> completeAtPublish = transports.completeAtPublish();
            Set<String> publishable = deliverers.stream().map(MessageDeliverer::deliveryType)
                    .collect(Collectors.toSet());
            publishable.addAll(completeAtPublish);
            JtaOutboxPublisher publisher = new JtaOutboxPublisher(
                    new StoreOutboxPublisher(store, settings.maxPayloadBytes(), clock, tracing, completeAtPublish),
                    wakeUp, publishable);
            FeedStore feeds = new TransactionalFeedStore(new JdbcFeedStore(connections, dialect), transactions);
            OutboxAdmin admin = new StoreOutboxAdmin(
                    new JdbcOutboxAdminStore(connections, dialect, settings.headFailurePolicy()), store,
                    transactions, clock, caller, audit);
            return new OutboxComponents(settings, dialect.name(), store, transactions, publisher, admin, feeds, processor,
                    purger, deliverers, created, tasks, clock, new OutboxProbes(clock));
        } catch (RuntimeException e) {
            Transports.close(created);
            throw e;
        }
    }

    /**
     * What a publishing transaction's commit does, on the committing thread: makes a running drain
     * go round once more, else hands one drain to the executor, however many commits ask for it
     * before it starts. Under load a drain is nearly always running, so a commit costs two atomic
     * operations instead of a task hand-over with its context capture.
     */
    private static Runnable wakeUp(OutboxProcessor processor, OutboxTasks tasks) {
        Runnable drainSoon = tasks.coalescing("wake-up", processor::drain);
        return () -> {
            if (!processor.wakeRunningDrain()) {
                drainSoon.run();
            }
        };
    }

    /**
     * Picks the delivery types claimed in lease mode and checks what bounds each batch: the JTA
     * timeout in lock mode, the lease in lease mode (where no transaction spans the deliveries),
     * against the longest batch each transport allows.
     */
    private LeaseSettings leaseSettings(List<MessageDeliverer> deliverers) {
        ClaimModes modes = settings.claimModes();
        Set<String> types = deliverers.stream().map(MessageDeliverer::deliveryType).collect(Collectors.toSet());
        List<String> problems = new ArrayList<>();
        modes.byType().keySet().stream().filter(type -> !types.contains(type)).forEach(type ->
                problems.add(OutboxSettings.CLAIM_MODE.name() + "." + type + " names delivery type '" + type
                        + "', which no transport or deliverer handles; the delivery types are " + new TreeSet<>(types)));
        Set<String> leased = modes.leased(types, transports.leasedByDefault());
        for (MessageDeliverer deliverer : deliverers) {
            String type = deliverer.deliveryType();
            boolean lease = leased.contains(type);
            Duration bound = lease ? modes.lease() : settings.transactionTimeout();
            Optional<Duration> worst = deliverer.maxBatchDuration(settings.processor().batchSize());
            // A lease-mode batch may wait for the transport while the worker's previous one is in
            // flight (pipelining), so its lease covers two of the transport's worst batches.
            Optional<Duration> needed = lease ? worst.map(duration -> duration.multipliedBy(2)) : worst;
            if (needed.isPresent() && needed.get().compareTo(bound) >= 0) {
                String limit = lease ? OutboxSettings.LEASE.name() : OutboxSettings.TRANSACTION_TIMEOUT.name();
                problems.add(limit + "=" + bound + " is too short: a batch of " + settings.processor().batchSize()
                        + " '" + type + "' deliveries may take up to " + worst.get() + (lease
                        ? " and lease mode keeps two batches per worker in flight, so a lease must exceed "
                        + needed.get() : " (claim mode lock)") + "; raise " + limit + ", lower "
                        + OutboxSettings.BATCH_SIZE.name() + " or the transport's timeouts"
                        + (lease ? "" : ", or claim it with " + OutboxSettings.CLAIM_MODE.name() + "." + type
                        + "=lease, which holds no transaction during deliveries"));
            }
        }
        if (!problems.isEmpty()) {
            throw new OutboxConfigurationException(problems);
        }
        return leased.isEmpty() ? LeaseSettings.NONE : new LeaseSettings(leased, modes.lease(), instanceName());
    }

    /** This JVM as the runtime names it ({@code pid@host}): the owner operators see on leased rows. */
    private static String instanceName() {
        String name = ManagementFactory.getRuntimeMXBean().getName();
        return name.length() <= 255 ? name : name.substring(0, 255);
    }

    private SqlDialect checkDatabase(DataSource dataSource) {
        try {
            return DatabaseCheck.forJtaTransactions(dataSource, settings.createSchema());
        } catch (SQLException e) {
            throw new IllegalStateException(OutboxSettings.DATASOURCE.name() + "=" + settings.dataSource()
                    + ": cannot reach the database: " + e.getMessage(), e);
        }
    }
}
