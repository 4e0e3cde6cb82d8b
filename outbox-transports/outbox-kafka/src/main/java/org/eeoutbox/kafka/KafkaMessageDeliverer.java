package org.eeoutbox.kafka;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxHeaders;
import org.eeoutbox.spi.CloudEvent;


/**
 * Delivers {@link KafkaDelivery} entries (delivery type {@value KafkaDelivery#DELIVERY_TYPE}) as
 * Kafka records through a {@code Producer<String, String>}: the topic, key and headers from the
 * delivery, the payload as the value, and {@value OutboxHeaders#MESSAGE_TYPE} (UTF-8),
 * {@value OutboxHeaders#ATTEMPT} (1 for the first attempt) and {@value OutboxHeaders#OUTBOX_ID}
 * with the entry's id appended LAST, after the delivery's own headers (consumers read
 * {@code lastHeader}).
 *
 * <h2>The producer</h2>
 * The application usually provides the producer ({@link #builder(Producer)}); the deliverer then
 * never closes it. Recommended settings:
 * <ul>
 *   <li>{@code enable.idempotence=true} and {@code acks=all} (Kafka's defaults since 3.0): a
 *       broker-side retry then never writes a record twice;</li>
 *   <li>{@code delivery.timeout.ms} at most the send timeout, for example
 *       {@code request.timeout.ms=10000} and {@code delivery.timeout.ms=25000} with the default
 *       30 s: {@code flush()} waits for every record until it is acknowledged or expires, so a
 *       longer {@code delivery.timeout.ms} stretches a batch during a broker outage beyond the
 *       send timeout, and a record still buffered after its entry was reported retriable may be
 *       sent later, beside its retry (a duplicate with the same {@value OutboxHeaders#OUTBOX_ID});</li>
 *   <li>{@code max.block.ms} well below the send timeout, for example 5000: {@code send()} blocks
 *       up to that long for the metadata of a topic it does not know (per unknown topic and
 *       batch, see below);</li>
 *   <li>no {@code transactional.id}: a transactional producer refuses sends outside a
 *       transaction, and every entry would stay postponed.</li>
 * </ul>
 * {@link #builder(Map)} instead creates a producer from configuration, with these settings as
 * defaults, and {@link #close()} closes it.
 *
 * <h2>A batch</h2>
 * {@link #deliverBatch} sends every record, calls {@code flush()} once (unless
 * {@linkplain Builder#flush(boolean) disabled}), then waits for each record's acknowledgement until
 * one deadline, the {@linkplain Builder#sendTimeout(Duration) send timeout} after the batch began.
 * Within a batch, once a topic's first record failed inside {@code send()} (metadata not available
 * within {@code max.block.ms}, topic not authorized, invalid topic), the other records for that
 * topic are not sent and get the same outcome; once the producer is found broken, the remaining
 * records are not sent. Results come back in input order; nothing is thrown.
 *
 * <h2>Classification</h2>
 * <table>
 *   <caption>Kafka failures and their outcome</caption>
 *   <tr><th>Failure</th><th>Outcome</th></tr>
 *   <tr><td>acknowledged by the broker</td><td>{@code delivered}</td></tr>
 *   <tr><td>metadata that cannot be read, a delivery type other than {@code kafka}</td>
 *       <td>{@code permanent}</td></tr>
 *   <tr><td>{@code RecordTooLargeException} (above {@code max.request.size} or the topic's
 *       {@code max.message.bytes}), {@code RecordBatchTooLargeException},
 *       {@code InvalidTopicException}, {@code InvalidRecordException} (for example no key on a
 *       compacted topic), {@code SerializationException}, {@code TopicAuthorizationException} and
 *       other {@code AuthorizationException}s about the record</td><td>{@code permanent}</td></tr>
 *   <tr><td>any {@code RetriableException}: {@code TimeoutException} (including a topic that does
 *       not exist while auto-creation is off, and a record expired after
 *       {@code delivery.timeout.ms}), {@code NotEnoughReplicasException},
 *       {@code UnknownTopicOrPartitionException}, {@code NetworkException},
 *       {@code NotLeaderOrFollowerException}, ...</td><td>{@code retriable}</td></tr>
 *   <tr><td>no acknowledgement before the batch deadline, the deadline passed before the record
 *       was sent, the thread interrupted</td><td>{@code retriable}</td></tr>
 *   <tr><td>any other exception (for example {@code UnknownServerException},
 *       {@code OutOfOrderSequenceException})</td><td>{@code retriable}: the retry budget bounds
 *       it</td></tr>
 *   <tr><td>the producer itself is broken: closed ({@code IllegalStateException}, or
 *       {@code KafkaException} "producer closed"), {@code ProducerFencedException},
 *       {@code FencedInstanceIdException}, {@code AuthenticationException},
 *       {@code ClusterAuthorizationException}, {@code TransactionalIdAuthorizationException},
 *       {@code UnsupportedVersionException}, or any other {@code KafkaException} that is not an
 *       {@code ApiException} (a fatal producer error, as Kafka wraps it)</td>
 *       <td>{@code postponed} until now + the {@linkplain Builder#postponeDelay(Duration) postpone
 *       delay}: the entry stays pending without spending its retry budget</td></tr>
 * </table>
 * A broken producer is logged once, at {@code ERROR}, when the deliverer first finds it broken,
 * and once at {@code INFO} when a record is delivered again; not once per entry.
 *
 * <p>Thread-safe: several threads may deliver batches at once (Kafka's producer is thread-safe;
 * a {@code flush()} also waits for the other threads' records).
 */
public final class KafkaMessageDeliverer implements MessageDeliverer, AutoCloseable {

    /** The default {@linkplain Builder#sendTimeout(Duration) send timeout}: 30 seconds. */
    public static final Duration DEFAULT_SEND_TIMEOUT = Duration.ofSeconds(30);

    /** The default {@linkplain Builder#postponeDelay(Duration) postpone delay}: 30 seconds. */
    public static final Duration DEFAULT_POSTPONE_DELAY = Duration.ofSeconds(30);

    private static final System.Logger LOG = System.getLogger(KafkaMessageDeliverer.class.getName());

    private final Producer<String, String> producer;
    private final boolean ownsProducer;
    private final Duration sendTimeout;
    private final Duration postponeDelay;
    private final boolean flush;
    private final Clock clock;
    private final URI cloudEventsSource;
    private final AtomicBoolean producerBroken = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();

    private KafkaMessageDeliverer(Builder builder, Producer<String, String> producer, boolean ownsProducer) {
        this.producer = producer;
        this.ownsProducer = ownsProducer;
        this.sendTimeout = builder.sendTimeout;
        this.postponeDelay = builder.postponeDelay;
        this.flush = builder.flush;
        this.clock = builder.clock;
        this.cloudEventsSource = builder.cloudEventsSource;
    }

    /** Returns the CloudEvents {@code source} of the records sent as CloudEvents. */
    URI cloudEventsSource() {
        return cloudEventsSource;
    }

    /**
     * Returns a deliverer with the default settings over a producer the application owns.
     *
     * @param producer the producer; not {@code null}; never closed by the deliverer
     */
    public static KafkaMessageDeliverer of(Producer<String, String> producer) {
        return builder(producer).build();
    }

    /**
     * Starts a deliverer over a producer the application owns and closes; the deliverer never
     * closes it.
     *
     * @param producer the producer; not {@code null}
     */
    public static Builder builder(Producer<String, String> producer) {
        return new Builder(Objects.requireNonNull(producer, "producer"), null);
    }

    /**
     * Starts a deliverer that creates its own {@link KafkaProducer} from {@code producerConfig}
     * when built, and closes it in {@link #close()}. The configuration needs at least
     * {@code bootstrap.servers}. Key and value serializers are always {@link StringSerializer}. Unless
     * the configuration sets them: {@code acks=all}, {@code enable.idempotence=true},
     * {@code request.timeout.ms} a third of the send timeout, {@code delivery.timeout.ms} five
     * sixths of it and {@code max.block.ms} a sixth of it (10, 25 and 5 seconds with the default
     * 30 s), so that a batch stays within the send timeout.
     *
     * @param producerConfig Kafka producer settings; not {@code null}
     */
    public static Builder builder(Map<String, ?> producerConfig) {
        return new Builder(null, Map.copyOf(Objects.requireNonNull(producerConfig, "producerConfig")));
    }

    /** Returns {@value KafkaDelivery#DELIVERY_TYPE}. */
    @Override
    public String deliveryType() {
        return KafkaDelivery.DELIVERY_TYPE;
    }

    /** Delivers one entry, as a batch of one. Never throws. */
    @Override
    public DeliveryResult deliver(OutboxEntry entry) {
        return deliverBatch(Collections.singletonList(entry)).get(0);
    }

    /**
     * Sends one record per entry, flushes once, and waits for the acknowledgements until the send
     * timeout after the call began (see the class documentation). Never throws.
     *
     * @param entries the entries; not {@code null}
     * @return one result per entry, in input order
     */
    @Override
    public List<DeliveryResult> deliverBatch(List<OutboxEntry> entries) {
        if (entries.isEmpty()) {
            return List.of();
        }
        return new KafkaBatch(this, producer, sendTimeout, flush, entries).run();
    }

    /**
     * Returns the send timeout when the deliverer built its producer (whose own timeouts it
     * derives from it, so a batch ends within it), and empty over the application's producer,
     * whose {@code max.block.ms} and {@code delivery.timeout.ms} the deliverer does not control.
     */
    @Override
    public Optional<Duration> maxBatchDuration(int batchSize) {
        return ownsProducer ? Optional.of(sendTimeout) : Optional.empty();
    }

    /**
     * Returns the entry's topic, for example {@code topic 'order-events'}.
     *
     * @throws IllegalArgumentException if the entry's metadata is not a valid Kafka delivery
     */
    @Override
    public String describeDestination(OutboxEntry entry) {
        return "topic '" + KafkaDelivery.fromMetadataJson(entry.deliveryMetadata()).topic() + "'";
    }

    /**
     * Closes the producer if this deliverer created it ({@link #builder(Map)}), waiting up to the
     * send timeout for buffered records; otherwise does nothing. Idempotent.
     */
    @Override
    public void close() {
        if (ownsProducer && closed.compareAndSet(false, true)) {
            producer.close(sendTimeout);
        }
    }

    @Override
    public String toString() {
        return "KafkaMessageDeliverer[sendTimeout=" + sendTimeout + ", postponeDelay=" + postponeDelay + ", flush="
                + flush + (ownsProducer ? ", own producer]" : "]");
    }

    /** The outcome of an entry while the producer is broken: postponed by the postpone delay. */
    DeliveryResult postponed(String reason) {
        return DeliveryResult.postponed(reason, clock.instant().plus(postponeDelay));
    }

    /** Notes that {@code failure} found the producer broken; logs the first time only. */
    void producerBroken(Throwable failure) {
        if (producerBroken.compareAndSet(false, true)) {
            LOG.log(System.Logger.Level.ERROR, "The Kafka producer cannot send: entries stay pending, "
                    + "postponed by " + postponeDelay + " at a time without spending their retry budget, "
                    + "until it sends again. Fix or replace the producer.", failure);
        }
    }

    /** Notes that a record was acknowledged; logs once when the producer was broken. */
    void producerDelivered() {
        if (producerBroken.compareAndSet(true, false)) {
            LOG.log(System.Logger.Level.INFO, "The Kafka producer delivers records again");
        }
    }

    /**
     * Builds a {@link KafkaMessageDeliverer}. Each setter checks its argument at once; a repeated
     * call keeps the last value. Not thread-safe.
     */
    public static final class Builder {

        private final Producer<String, String> producer;
        private final Map<String, ?> producerConfig;
        private Duration sendTimeout = DEFAULT_SEND_TIMEOUT;
        private Duration postponeDelay = DEFAULT_POSTPONE_DELAY;
        private boolean flush = true;
        private Clock clock = Clock.systemUTC();
        private URI cloudEventsSource = CloudEvent.DEFAULT_SOURCE;

        private Builder(Producer<String, String> producer, Map<String, ?> producerConfig) {
            this.producer = producer;
            this.producerConfig = producerConfig;
        }

        /**
         * Sets how long one {@link #deliverBatch} call waits for acknowledgements in total,
         * counted from the call; a record not acknowledged by then is retriable. Together with the
         * producer's {@code max.block.ms} it bounds a batch's time: keep the processor's
         * transaction timeout above it. Defaults to 30 seconds.
         *
         * @throws IllegalArgumentException if not between 1 second and 1 hour
         */
        public Builder sendTimeout(Duration sendTimeout) {
            this.sendTimeout = between("sendTimeout", sendTimeout, Duration.ofSeconds(1), Duration.ofHours(1));
            return this;
        }

        /**
         * Sets how long entries wait before the next try while the producer is broken (closed,
         * fenced, not authenticated): their {@code notBefore} is now plus this delay. Defaults to
         * 30 seconds.
         *
         * @throws IllegalArgumentException if not between 0 and 1 day
         */
        public Builder postponeDelay(Duration postponeDelay) {
            this.postponeDelay = between("postponeDelay", postponeDelay, Duration.ZERO, Duration.ofDays(1));
            return this;
        }

        /**
         * Sets whether a batch calls {@code producer.flush()} after sending, so that its records
         * leave at once instead of after {@code linger.ms}. {@code flush()} waits for every
         * buffered record of the producer until acknowledged or expired after
         * {@code delivery.timeout.ms}, whatever the send timeout; turn it off to bound a batch by
         * the send timeout alone when the producer's {@code delivery.timeout.ms} cannot be kept
         * below it (then prefer a small {@code linger.ms}). Defaults to {@code true}.
         */
        public Builder flush(boolean flush) {
            this.flush = flush;
            return this;
        }

        /** Sets the clock for the {@code notBefore} of postponed entries. Defaults to UTC system time. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Sets the CloudEvents {@code source} of the deliveries sent
         * {@linkplain KafkaDelivery.Builder#cloudEvents as CloudEvents}. Defaults to
         * {@code urn:eeoutbox}, the default of {@code outbox.cloudevents.source}.
         */
        public Builder cloudEventsSource(URI source) {
            this.cloudEventsSource = Objects.requireNonNull(source, "source");
            return this;
        }

        /**
         * Returns the deliverer; with {@link KafkaMessageDeliverer#builder(Map)} this creates
         * its producer.
         *
         * @throws KafkaException if the producer configuration is invalid
         */
        public KafkaMessageDeliverer build() {
            if (producer != null) {
                return new KafkaMessageDeliverer(this, producer, false);
            }
            return new KafkaMessageDeliverer(this, KafkaProducerDefaults.create(producerConfig, sendTimeout), true);
        }

        private static Duration between(String name, Duration value, Duration min, Duration max) {
            if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
                throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ", got: " + value);
            }
            return value;
        }
    }
}
