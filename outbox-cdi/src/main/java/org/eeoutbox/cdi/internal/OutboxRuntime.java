package org.eeoutbox.cdi.internal;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.lang.reflect.Type;
import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.eeoutbox.OutboxPublisher;
import org.eeoutbox.admin.AdminAction;
import org.eeoutbox.admin.OutboxAdmin;
import org.eeoutbox.cdi.OutboxExtension;
import org.eeoutbox.engine.BatchReport;
import org.eeoutbox.engine.OutboxListener;
import org.eeoutbox.engine.PublishCommitted;
import org.eeoutbox.spi.FeedStore;
import org.eeoutbox.spi.OutboxStats;

/**
 * The outbox inside a Jakarta EE application, as a CDI bean: builds its components
 * ({@link OutboxAssembly}) from the configuration the extension checked at deployment and starts
 * them when the application starts ({@link OutboxStartup}); stops them when it stops.
 *
 * <p>Startup fails the deployment with a message naming the property or the fix, for a missing
 * DataSource or executor, a database check that fails (isolation, schema) or a transport that
 * cannot be created. Processing events ({@link BatchReport}, {@link LeasesLost}), operators' changes
 * ({@link AdminAction}) and publishing transactions ({@link PublishCommitted}) are fired as CDI
 * events after each commit. Thread-safe.
 */
@ApplicationScoped
public class OutboxRuntime {

    /** The names the supported servers give a caller who is not authenticated. */
    private static final Set<String> ANONYMOUS_NAMES = Set.of("ANONYMOUS", "UNAUTHENTICATED", "anonymous");

    @Inject
    BeanManager beanManager;

    @Inject
    Event<BatchReport> batchEvents;

    @Inject
    Event<AdminAction> adminEvents;

    @Inject
    Event<LeasesLost> leaseEvents;

    @Inject
    Event<PublishCommitted> publishEvents;

    /** The container's built-in bean of the current caller. */
    @Inject
    Instance<Principal> principal;

    @Inject
    RequiresNewTransactions requiresNew;

    /** Fired once the outbox has started, with the settings in force (metrics register then). */
    @Inject
    Event<OutboxSettings> started;

    private OutboxComponents components;
    private boolean stopped;
    private volatile OutboxStats stats = new OutboxStats(0, 0, Duration.ZERO, 0);
    private final AtomicBoolean refreshing = new AtomicBoolean();

    /**
     * Produces the publisher applications inject; starts the outbox if the application has not
     * started yet.
     */
    @Produces
    @ApplicationScoped
    OutboxPublisher publisher() {
        return start().publisher();
    }

    /**
     * Produces the operations API applications inject; starts the outbox if the application has
     * not started yet. Its changes are recorded with the container's current {@link Principal},
     * and fired as {@link AdminAction} events after they commit.
     */
    @Produces
    @ApplicationScoped
    OutboxAdmin admin() {
        return start().admin();
    }

    /**
     * Produces the reader of feed channels (outbox-feed-sse injects it); each call runs in a new
     * container transaction of its own. Starts the outbox if the application has not started yet.
     */
    @Produces
    @ApplicationScoped
    FeedStore feeds() {
        return start().feeds();
    }

    /**
     * The current caller's name, {@code null} when the container knows none or names the
     * unauthenticated caller with its placeholder (Payara: {@code ANONYMOUS}, measured; Open
     * Liberty: {@code UNAUTHENTICATED}; WildFly: {@code anonymous}).
     */
    private String callerName() {
        if (!principal.isResolvable()) {
            return null;
        }
        Principal current = principal.get();
        String name = current == null ? null : current.getName();
        return name == null || ANONYMOUS_NAMES.contains(name) ? null : name;
    }

    /** Returns the latest counts, refreshed every {@code outbox.metrics.refresh-interval} once asked for. */
    OutboxStats stats() {
        return stats;
    }

    /**
     * Refreshes {@link #stats()} on schedule from now on; called by the metrics and the health
     * integrations, scheduled once however often it is called.
     */
    void refreshStatsOnSchedule() {
        OutboxComponents started = start();
        if (refreshing.compareAndSet(false, true)) {
            started.refreshStats(fresh -> stats = fresh);
        }
    }

    /**
     * Returns the outbox's parts while it runs (its schema and configuration were checked), empty
     * before it started and after it stopped; never starts it.
     */
    synchronized Optional<OutboxComponents> running() {
        return Optional.ofNullable(components);
    }

    /**
     * Starts the outbox unless it runs already; see {@link OutboxStartup}.
     *
     * @throws IllegalStateException once the outbox has stopped: an outbox never starts twice
     */
    synchronized OutboxComponents start() {
        if (stopped) {
            throw new IllegalStateException("The outbox has stopped with its application");
        }
        if (components == null) {
            OutboxExtension extension = beanManager.getExtension(OutboxExtension.class);
            DeploymentConfiguration deployment = extension.configuration();
            OutboxListener listener = new OutboxListener() {
                @Override
                public void onBatchCommitted(BatchReport report) {
                    batchEvents.fire(report);
                }

                @Override
                public void onLeasesLost(int count) {
                    leaseEvents.fire(new LeasesLost(count));
                }

                @Override
                public void onPublishCommitted() {
                    publishEvents.fire(PublishCommitted.INSTANCE);
                }
            };
            OutboxComponents built = new OutboxAssembly(deployment.settings(), deployment.configuration(),
                    deployment.transports(), new JndiResources(), requiresNew, new OutboxAssembly.ApplicationBeanSource() {
                        @Override
                        public <T> List<T> beans(Class<T> as, Predicate<Type> type) {
                            return deployment.applicationBeans().references(beanManager, as, type);
                        }
                    }, listener, this::callerName, adminEvents::fire, Tracings.of(beanManager), Clock.systemUTC()).build();
            built.start();
            components = built;
            started.fire(built.settings());
        }
        return components;
    }

    /** Stops the schedules, waits for running batches, closes what the outbox created. */
    @PreDestroy
    synchronized void stop() {
        stopped = true;
        if (components != null) {
            components.stop();
            components = null;
        }
    }
}
