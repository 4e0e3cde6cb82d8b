package org.eeoutbox.cdi.internal;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.eeoutbox.RetryPolicy;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.config.Property;
import org.eeoutbox.engine.ProcessorSettings;
import org.eeoutbox.engine.PurgerSettings;
import org.eeoutbox.engine.StoreOutboxPublisher;
import org.eeoutbox.spi.CloudEvent;
import org.eeoutbox.spi.HeadFailurePolicy;

/**
 * The runtime's own configuration: every {@code outbox.*} property that is not a transport's,
 * declared once below ({@link #PROPERTIES}) and read from a {@link Configuration}.
 *
 * @param dataSource         JNDI name of the container DataSource
 * @param trigger            what calls the periodic tasks
 * @param scheduledExecutor  JNDI name of the ManagedScheduledExecutorService the default trigger uses
 * @param managedExecutor    JNDI name of the ManagedExecutorService that runs every task, the extra
 *                           workers and the transports' asynchronous work
 * @param createSchema       create or upgrade the outbox table at startup
 * @param maxPayloadBytes    the largest payload accepted
 * @param metricsEnabled     publish MicroProfile Metrics when present
 * @param statsInterval      how often the gauges' counts are refreshed
 * @param processorEnabled   run the processor on this instance
 * @param pollInterval       pause between polls
 * @param processor          batch size, concurrency, retry policy, drain budget
 * @param transactionTimeout JTA timeout of each batch
 * @param purgerEnabled      run the purger on this instance
 * @param purgeInterval      pause between purges
 * @param purger             retention, deduplication window, batch size
 * @param maxPendingAge      readiness is DOWN while the oldest pending entry is older; {@code null}
 *                           (the default): pending age never affects readiness
 * @param headFailurePolicy  what a failed head does to its ordering key
 * @param claimModes         lock or lease mode per delivery type, and the leases' length
 */
public record OutboxSettings(
        String dataSource,
        Trigger trigger,
        String scheduledExecutor,
        String managedExecutor,
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
        PurgerSettings purger,
        Duration maxPendingAge,
        HeadFailurePolicy headFailurePolicy,
        ClaimModes claimModes) {

    /** What calls the outbox's periodic tasks. */
    public enum Trigger {
        /** The container's ManagedScheduledExecutorService named by {@code outbox.managed-scheduled-executor}. */
        MANAGED_SCHEDULED_EXECUTOR("managed-scheduled-executor"),
        /** An Enterprise Beans timer, from the {@code outbox-ejb} module. */
        EJB_TIMER("ejb-timer");

        private final String propertyValue;

        Trigger(String propertyValue) {
            this.propertyValue = propertyValue;
        }

        /** Returns the value of {@code outbox.trigger} that selects this trigger. */
        public String propertyValue() {
            return propertyValue;
        }

        static Trigger of(String propertyValue) {
            for (Trigger trigger : values()) {
                if (trigger.propertyValue.equals(propertyValue)) {
                    return trigger;
                }
            }
            throw new IllegalArgumentException(propertyValue);
        }
    }

    private static final Duration MILLI = Duration.ofMillis(1);
    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final RetryPolicy RETRY = RetryPolicy.DEFAULT;

    static final Property<String> DATASOURCE = Property.required("outbox.datasource",
            "the JNDI name of a transactional DataSource, for example java:app/jdbc/orders",
            "The container DataSource the outbox table lives in; it must run transactions at READ COMMITTED.");
    static final Property<String> TRIGGER = Property.oneOf("outbox.trigger",
            Trigger.MANAGED_SCHEDULED_EXECUTOR.propertyValue(),
            List.of(Trigger.MANAGED_SCHEDULED_EXECUTOR.propertyValue(), Trigger.EJB_TIMER.propertyValue()),
            "What calls the periodic tasks: the managed scheduled executor, or the Enterprise Beans timer of outbox-ejb.");
    static final Property<String> SCHEDULED_EXECUTOR = Property.text("outbox.managed-scheduled-executor",
            "java:comp/DefaultManagedScheduledExecutorService", "a JNDI name",
            "The ManagedScheduledExecutorService that calls the periodic tasks when outbox.trigger=managed-scheduled-executor.");
    static final Property<String> MANAGED_EXECUTOR = Property.text("outbox.managed-executor",
            "java:comp/DefaultManagedExecutorService", "a JNDI name",
            "The ManagedExecutorService that runs every task, the extra workers and the transports' asynchronous work.");
    static final Property<Boolean> CREATE_SCHEMA = Property.bool("outbox.schema.create", false,
            "Create the outbox table at startup when it is missing.");
    static final Property<Long> MAX_PAYLOAD = Property.size("outbox.payload.max-size",
            StoreOutboxPublisher.DEFAULT_MAX_PAYLOAD_BYTES, 1, 64L * 1024 * 1024,
            "The largest payload publish accepts.");
    static final Property<Boolean> METRICS = Property.bool("outbox.metrics.enabled", true,
            "Publish MicroProfile Metrics when the server has them.");
    static final Property<Duration> STATS_INTERVAL = Property.duration("outbox.metrics.refresh-interval",
            Duration.ofSeconds(15), SECOND, null, "How often the gauges' counts are read from the table.");
    static final Property<Boolean> PROCESSOR = Property.bool("outbox.processor.enabled", true,
            "Run the processor (delivery) on this instance.");
    static final Property<Duration> POLL_INTERVAL = Property.duration("outbox.processor.interval",
            Duration.ofSeconds(1), Duration.ofMillis(10), null,
            "The pause between polls; a commit wakes the processor at once in between.");
    static final Property<Integer> BATCH_SIZE = Property.integer("outbox.processor.batch-size",
            ProcessorSettings.DEFAULT.batchSize(), 1, ProcessorSettings.MAX_BATCH_SIZE,
            "How many entries one batch claims and delivers in one transaction.");
    static final Property<Integer> CONCURRENCY = Property.integer("outbox.processor.concurrency",
            ProcessorSettings.DEFAULT.concurrency(), 1, ProcessorSettings.MAX_CONCURRENCY,
            "How many batches run at once while a backlog drains; the workers beyond the first start when"
                    + " the first finds one.");
    static final Property<Duration> DRAIN_BUDGET = Property.duration("outbox.processor.drain-budget",
            ProcessorSettings.DEFAULT.drainBudget(), MILLI, null,
            "How long one poll keeps claiming batches while entries are due.");
    static final Property<String> TRANSPORT_DISPATCH = Property.oneOf("outbox.processor.transport-dispatch",
            "parallel", List.of("parallel", "sequential"),
            "Where a batch's deliveries run: parallel, on outbox.managed-executor, its delivery types at once, "
                    + "while the worker writes a lock-mode batch as delivered and then the entries that were not, "
                    + "before the commit; sequential, one delivery type after the other on the worker's thread, "
                    + "then the write.");
    static final Property<Duration> FULL_SCAN_INTERVAL = Property.duration("outbox.processor.full-scan-interval",
            ProcessorSettings.DEFAULT.fullScanInterval(), Duration.ZERO, null,
            "How often a claim scans from the oldest due entry; in between, claims start this long before the oldest "
                    + "entry the last claims found, past what delivered entries leave in the claim index until VACUUM "
                    + "(PostgreSQL). An entry that becomes claimable earlier than that (a lease expired, a type resumed) "
                    + "waits up to this long more. 0: every claim scans from the oldest.");
    static final Property<Duration> TRANSACTION_TIMEOUT = Property.duration("outbox.processor.transaction-timeout",
            Duration.ofSeconds(120), SECOND, null,
            "The JTA timeout of each batch; must exceed the longest batch the transports allow.");
    static final Property<String> CLAIM_MODE = Property.optionalOneOf("outbox.processor.claim-mode",
            List.of(ClaimModes.LOCK, ClaimModes.LEASE),
            "How delivery types without their own claim-mode are claimed: lock (claim, delivery and update in one "
                    + "transaction) or lease (a short claim, delivery with no transaction open, a fenced update). "
                    + "Unset, each transport's default: lease for http, lock for kafka and your own deliverers; "
                    + "see docs/leases.md.");
    static final Property<String> CLAIM_MODE_BY_TYPE = Property.text("outbox.processor.claim-mode.<delivery-type>",
            null, "lock or lease", "The claim mode of one delivery type (http, kafka or your own), overriding "
                    + "outbox.processor.claim-mode.");
    static final Property<Duration> LEASE = Property.duration("outbox.processor.lease", Duration.ofMinutes(2),
            SECOND, null, "How long a lease-mode claim lasts; must exceed twice the longest batch the transports allow. "
                    + "An entry whose lease ends undelivered is claimed again.");
    static final Property<Integer> MAX_RETRIES = Property.integer("outbox.processor.max-retries",
            RETRY.maxRetries(), 0, 1000, "How many retries after the first attempt before an entry is FAILED.");
    static final Property<Duration> INITIAL_BACKOFF = Property.duration("outbox.processor.initial-backoff",
            RETRY.initialBackoff(), Duration.ZERO, null, "The wait before the first retry.");
    static final Property<Double> MULTIPLIER = Property.decimal("outbox.processor.backoff-multiplier",
            RETRY.multiplier(), 1.0, 1000.0, "How much each retry's wait grows over the previous one.");
    static final Property<Duration> MAX_BACKOFF = Property.duration("outbox.processor.max-backoff",
            RETRY.maxBackoff(), Duration.ZERO, null,
            "The longest wait between retries; at least outbox.processor.initial-backoff.");
    static final Property<Double> JITTER = Property.decimal("outbox.processor.backoff-jitter",
            RETRY.jitter(), 0.0, 1.0, "The random share taken off each wait, so that retries spread out.");
    static final Property<Boolean> PURGER = Property.bool("outbox.purger.enabled", true,
            "Run the purger (removes old delivered entries) on this instance.");
    static final Property<Duration> PURGE_INTERVAL = Property.duration("outbox.purger.interval",
            Duration.ofMinutes(5), SECOND, null, "The pause between purges.");
    static final Property<Duration> RETENTION = Property.duration("outbox.purger.retention",
            PurgerSettings.DEFAULT.retention(), SECOND, null, "How long delivered entries are kept.");
    static final Property<Duration> DEDUPLICATION_WINDOW = Property.duration("outbox.purger.deduplication-window",
            PurgerSettings.DEFAULT.deduplicationWindow(), SECOND, null,
            "How long a deduplication key is remembered; defaults to outbox.purger.retention.");
    static final Property<Duration> DISCARDED_RETENTION = Property.duration("outbox.purger.discarded-retention",
            PurgerSettings.DEFAULT.discardedRetention(), SECOND, null,
            "How long entries an operator discarded are kept for audit, counted from the discard.");
    static final Property<Integer> PURGE_BATCH = Property.integer("outbox.purger.batch-size",
            PurgerSettings.DEFAULT.batchSize(), 1, PurgerSettings.MAX_BATCH_SIZE,
            "How many entries one purge statement removes.");
    static final Property<Duration> MAX_PENDING_AGE = Property.optionalDuration("outbox.health.max-pending-age",
            SECOND, null, "When set, MicroProfile Health readiness is DOWN while the oldest PENDING entry is older; "
                    + "unset, a backlog (a receiver outage) never takes the application out of service.");

    static final Property<String> ON_HEAD_FAILURE = Property.oneOf("outbox.ordering.on-head-failure",
            "block", List.of("block", "skip"),
            "What a FAILED head does to its ordering key: block keeps the key's later entries waiting until an "
                    + "operator replays or discards the head; skip lets the key go on without it. Unkeyed entries "
                    + "are not affected (docs/ordering.md).");

    /** Every property of the runtime, in the order of the configuration reference. */
    public static final List<Property<?>> PROPERTIES = List.of(DATASOURCE, TRIGGER, SCHEDULED_EXECUTOR,
            MANAGED_EXECUTOR, CREATE_SCHEMA, MAX_PAYLOAD, METRICS, STATS_INTERVAL, PROCESSOR, POLL_INTERVAL,
            BATCH_SIZE, CONCURRENCY, DRAIN_BUDGET, TRANSPORT_DISPATCH, FULL_SCAN_INTERVAL, TRANSACTION_TIMEOUT,
            CLAIM_MODE, CLAIM_MODE_BY_TYPE, LEASE, MAX_RETRIES,
            INITIAL_BACKOFF, MULTIPLIER, MAX_BACKOFF, JITTER, PURGER, PURGE_INTERVAL, RETENTION, DEDUPLICATION_WINDOW,
            DISCARDED_RETENTION, PURGE_BATCH, MAX_PENDING_AGE, ON_HEAD_FAILURE,
            // Read by the transports that send CloudEvents (HTTP and Kafka), declared once for both.
            CloudEvent.SOURCE);

    /**
     * Reads the runtime's properties, recording every problem in {@code configuration}.
     *
     * @return the settings, or empty when a property is invalid (the problems say which)
     */
    public static Optional<OutboxSettings> read(Configuration configuration) {
        int problemsBefore = configuration.problems().size();
        String dataSource = configuration.get(DATASOURCE);
        Trigger trigger = Trigger.of(configuration.get(TRIGGER));
        Duration initialBackoff = configuration.get(INITIAL_BACKOFF);
        Duration maxBackoff = configuration.get(MAX_BACKOFF);
        if (maxBackoff.compareTo(initialBackoff) < 0) {
            configuration.problem(MAX_BACKOFF.name() + "=" + maxBackoff + " is invalid: it must be at least "
                    + INITIAL_BACKOFF.name() + " (" + initialBackoff + ")");
        }
        Duration retention = configuration.get(RETENTION);
        Duration deduplicationWindow = configuration.find(DEDUPLICATION_WINDOW).orElse(retention);
        RetryPolicy retryPolicy = new RetryPolicy(configuration.get(MAX_RETRIES), initialBackoff,
                configuration.get(MULTIPLIER), maxBackoff.compareTo(initialBackoff) < 0 ? initialBackoff : maxBackoff,
                configuration.get(JITTER));
        OutboxSettings settings = new OutboxSettings(dataSource, trigger, configuration.get(SCHEDULED_EXECUTOR),
                configuration.get(MANAGED_EXECUTOR), configuration.get(CREATE_SCHEMA), configuration.get(MAX_PAYLOAD),
                configuration.get(METRICS), configuration.get(STATS_INTERVAL), configuration.get(PROCESSOR),
                configuration.get(POLL_INTERVAL), new ProcessorSettings(configuration.get(BATCH_SIZE),
                        configuration.get(CONCURRENCY), retryPolicy, configuration.get(DRAIN_BUDGET),
                        ProcessorSettings.TransportDispatch.valueOf(
                                configuration.get(TRANSPORT_DISPATCH).toUpperCase(Locale.ROOT)),
                        configuration.get(FULL_SCAN_INTERVAL)),
                configuration.get(TRANSACTION_TIMEOUT), configuration.get(PURGER), configuration.get(PURGE_INTERVAL),
                new PurgerSettings(retention, deduplicationWindow, configuration.get(DISCARDED_RETENTION),
                        configuration.get(PURGE_BATCH),
                        PurgerSettings.DEFAULT.timeBudget()), configuration.find(MAX_PENDING_AGE).orElse(null),
                HeadFailurePolicy.valueOf(configuration.get(ON_HEAD_FAILURE).toUpperCase(Locale.ROOT)),
                new ClaimModes(configuration.find(CLAIM_MODE).orElse(null), claimModesByType(configuration),
                        configuration.get(LEASE)));
        return configuration.problems().size() == problemsBefore ? Optional.of(settings)
                : Optional.empty();
    }

    /** The values of {@code outbox.processor.claim-mode.<delivery-type>}, by delivery type, each checked. */
    private static Map<String, String> claimModesByType(Configuration configuration) {
        String prefix = CLAIM_MODE.name() + ".";
        Map<String, String> modes = new TreeMap<>();
        configuration.matching(CLAIM_MODE_BY_TYPE).forEach((key, value) -> {
            String mode = value.trim().toLowerCase(Locale.ROOT);
            if (mode.equals(ClaimModes.LOCK) || mode.equals(ClaimModes.LEASE)) {
                modes.put(key.substring(prefix.length()), mode);
            } else {
                configuration.problem(key + "=" + value + " is invalid: expected lock or lease");
            }
        });
        return modes;
    }
}
