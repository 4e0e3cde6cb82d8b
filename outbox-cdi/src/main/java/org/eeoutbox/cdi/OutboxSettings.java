package org.eeoutbox.cdi;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.eeoutbox.RetryPolicy;
import org.eeoutbox.engine.ProcessorSettings;
import org.eeoutbox.engine.PurgerSettings;
import org.eeoutbox.engine.StoreOutboxPublisher;

/**
 * The outbox's configuration, read from MicroProfile Config properties {@code outbox.*} and
 * validated as a whole; see README.md for every property, its default and its range.
 *
 * @param dataSource         JNDI name of the container DataSource ({@code outbox.datasource})
 * @param scheduler          what calls the periodic tasks ({@code outbox.scheduler})
 * @param executor           JNDI name of the ManagedScheduledExecutorService that calls them with the
 *                           default scheduler ({@code outbox.executor})
 * @param asyncExecutor      JNDI name of the ManagedExecutorService that runs every task, the extra
 *                           workers and the transports' asynchronous work ({@code outbox.async-executor})
 * @param createSchema       create a missing outbox table at startup ({@code outbox.schema.create})
 * @param maxPayloadBytes    the largest payload accepted ({@code outbox.payload.max-size})
 * @param metricsEnabled     publish MicroProfile Metrics when present ({@code outbox.metrics.enabled})
 * @param statsInterval      how often the gauges' counts are refreshed ({@code outbox.metrics.refresh-interval})
 * @param processorEnabled   run the processor on this instance ({@code outbox.processor.enabled})
 * @param pollInterval       pause between polls ({@code outbox.processor.interval})
 * @param processor          batch size, concurrency, retry policy, drain budget
 * @param transactionTimeout JTA timeout of each batch ({@code outbox.processor.transaction-timeout})
 * @param purgerEnabled      run the purger on this instance ({@code outbox.purger.enabled})
 * @param purgeInterval      pause between purges ({@code outbox.purger.interval})
 * @param purger             retention, deduplication window, batch size
 */
public record OutboxSettings(
        String dataSource,
        Scheduler scheduler,
        String executor,
        String asyncExecutor,
        boolean createSchema,
        long maxPayloadBytes,
        boolean metricsEnabled,
        Duration statsInterval,
        boolean processorEnabled,
        Duration pollInterval,
        ProcessorSettings processor,
        Duration transactionTimeout,
        boolean purgerEnabled,
        Duration purgeInterval,
        PurgerSettings purger) {

    /** What calls the outbox's periodic tasks. */
    public enum Scheduler {
        /** The container's ManagedScheduledExecutorService named by {@code outbox.executor}. */
        MANAGED_EXECUTOR("managed-executor"),
        /** An Enterprise Beans timer, from the {@code outbox-ejb} module. */
        EJB_TIMER("ejb-timer");

        private final String propertyValue;

        Scheduler(String propertyValue) {
            this.propertyValue = propertyValue;
        }

        /** Returns the value of {@code outbox.scheduler} that selects this scheduler. */
        public String propertyValue() {
            return propertyValue;
        }

        static Scheduler of(String propertyValue) {
            for (Scheduler scheduler : values()) {
                if (scheduler.propertyValue.equals(propertyValue)) {
                    return scheduler;
                }
            }
            throw new IllegalArgumentException(propertyValue);
        }
    }

    /** The platform's default managed scheduled executor. */
    public static final String DEFAULT_EXECUTOR = "java:comp/DefaultManagedScheduledExecutorService";

    /** The platform's default managed executor. */
    public static final String DEFAULT_ASYNC_EXECUTOR = "java:comp/DefaultManagedExecutorService";

    private static final Duration MILLI = Duration.ofMillis(1);
    private static final Duration SECOND = Duration.ofSeconds(1);

    /**
     * Reads and validates every property.
     *
     * @param source a property's value by name, empty when unset
     * @throws OutboxConfigurationException listing every invalid property with its value and what
     *                                      is accepted
     */
    public static OutboxSettings read(Function<String, Optional<String>> source) {
        ConfigValues values = new ConfigValues(source);
        String dataSource = values.requiredString("outbox.datasource",
                "the JNDI name of a transactional DataSource, for example java:app/jdbc/orders");
        Scheduler scheduler = Scheduler.of(values.oneOf("outbox.scheduler", Scheduler.MANAGED_EXECUTOR.propertyValue(),
                Arrays.stream(Scheduler.values()).map(Scheduler::propertyValue).toList()));
        String executor = values.string("outbox.executor").orElse(DEFAULT_EXECUTOR);
        String asyncExecutor = values.string("outbox.async-executor").orElse(DEFAULT_ASYNC_EXECUTOR);
        boolean createSchema = values.bool("outbox.schema.create", false);
        long maxPayload = values.size("outbox.payload.max-size", StoreOutboxPublisher.DEFAULT_MAX_PAYLOAD_BYTES,
                1, 64L * 1024 * 1024);
        boolean metrics = values.bool("outbox.metrics.enabled", true);
        Duration statsInterval = values.duration("outbox.metrics.refresh-interval", Duration.ofSeconds(15), SECOND);

        boolean processorEnabled = values.bool("outbox.processor.enabled", true);
        Duration pollInterval = values.duration("outbox.processor.interval", Duration.ofSeconds(1), Duration.ofMillis(10));
        int batchSize = values.integer("outbox.processor.batch-size", 100, 1, 10_000);
        int concurrency = values.integer("outbox.processor.concurrency", 1, 1, 64);
        Duration drainBudget = values.duration("outbox.processor.drain-budget", Duration.ofSeconds(5), MILLI);
        Duration transactionTimeout = values.duration("outbox.processor.transaction-timeout", Duration.ofSeconds(120),
                SECOND);
        RetryPolicy defaults = RetryPolicy.DEFAULT;
        int maxRetries = values.integer("outbox.processor.max-retries", defaults.maxRetries(), 0, 1000);
        Duration initialBackoff = values.duration("outbox.processor.initial-backoff", defaults.initialBackoff(),
                Duration.ZERO);
        double multiplier = values.decimal("outbox.processor.backoff-multiplier", defaults.multiplier(), 1.0, 1000.0,
                "[1, 1000)");
        Duration maxBackoff = values.duration("outbox.processor.max-backoff", defaults.maxBackoff(), Duration.ZERO);
        double jitter = values.decimal("outbox.processor.backoff-jitter", defaults.jitter(), 0.0, 1.0, "[0, 1)");
        if (maxBackoff.compareTo(initialBackoff) < 0) {
            values.problem("outbox.processor.max-backoff=" + maxBackoff + " is invalid: it must be at least "
                    + "outbox.processor.initial-backoff (" + initialBackoff + ")");
            maxBackoff = initialBackoff;
        }

        boolean purgerEnabled = values.bool("outbox.purger.enabled", true);
        Duration purgeInterval = values.duration("outbox.purger.interval", Duration.ofMinutes(5), SECOND);
        Duration retention = values.duration("outbox.purger.retention", PurgerSettings.DEFAULT.retention(), SECOND);
        Duration deduplicationWindow = values.duration("outbox.purger.deduplication-window", retention, SECOND);
        int purgeBatch = values.integer("outbox.purger.batch-size", PurgerSettings.DEFAULT.batchSize(), 1, 100_000);

        List<String> problems = values.problems();
        if (!problems.isEmpty()) {
            throw new OutboxConfigurationException(problems);
        }
        RetryPolicy retryPolicy = new RetryPolicy(maxRetries, initialBackoff, multiplier, maxBackoff, jitter);
        return new OutboxSettings(dataSource, scheduler, executor, asyncExecutor, createSchema, maxPayload, metrics, statsInterval,
                processorEnabled, pollInterval, new ProcessorSettings(batchSize, concurrency, retryPolicy, drainBudget),
                transactionTimeout, purgerEnabled, purgeInterval,
                new PurgerSettings(retention, deduplicationWindow, purgeBatch, PurgerSettings.DEFAULT.timeBudget()));
    }
}
