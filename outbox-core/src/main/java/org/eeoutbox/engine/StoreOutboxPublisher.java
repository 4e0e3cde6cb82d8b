package org.eeoutbox.engine;

import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import org.eeoutbox.DeliveryInfo;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxPublisher;
import org.eeoutbox.spi.DeliveryTracing;
import org.eeoutbox.spi.OutboxStore;

/**
 * An {@link OutboxPublisher} that checks its arguments, then inserts through an
 * {@link OutboxStore} in the caller's transaction. The store is what refuses to write outside a
 * transaction ({@link IllegalStateException}). With a {@link DeliveryTracing}, each entry stores the
 * trace context current on the publishing thread (none without a valid span).
 *
 * <p>Thread-safe.
 */
public final class StoreOutboxPublisher implements OutboxPublisher {

    /** The default largest payload, 1 MiB of UTF-8. */
    public static final long DEFAULT_MAX_PAYLOAD_BYTES = 1024 * 1024;

    private final OutboxStore store;
    private final long maxPayloadBytes;
    private final Clock clock;
    private final Supplier<UUID> ids;
    private final DeliveryTracing tracing;
    private final Set<String> completeAtPublish;

    /**
     * Creates a publisher issuing time-ordered {@link UuidV7} ids.
     *
     * @param maxPayloadBytes the largest payload accepted, in UTF-8 bytes, {@code > 0}
     */
    public StoreOutboxPublisher(OutboxStore store, long maxPayloadBytes, Clock clock) {
        this(store, maxPayloadBytes, clock, DeliveryTracing.NONE);
    }

    /**
     * Creates a publisher issuing time-ordered {@link UuidV7} ids that stores the current trace
     * context read from {@code tracing}.
     *
     * @param maxPayloadBytes the largest payload accepted, in UTF-8 bytes, {@code > 0}
     */
    public StoreOutboxPublisher(OutboxStore store, long maxPayloadBytes, Clock clock, DeliveryTracing tracing) {
        this(store, maxPayloadBytes, clock, tracing, Set.of());
    }

    /**
     * As above, writing the entries of the {@code completeAtPublish} delivery types as delivered at
     * publish ({@link org.eeoutbox.spi.TransportProvider#completeAtPublish()}).
     */
    public StoreOutboxPublisher(OutboxStore store, long maxPayloadBytes, Clock clock, DeliveryTracing tracing,
                                Set<String> completeAtPublish) {
        this(store, maxPayloadBytes, clock, UuidV7::next, tracing, completeAtPublish);
    }

    /** As above, with the id source given. */
    StoreOutboxPublisher(OutboxStore store, long maxPayloadBytes, Clock clock, Supplier<UUID> ids,
                         DeliveryTracing tracing) {
        this(store, maxPayloadBytes, clock, ids, tracing, Set.of());
    }

    /** As above, with the id source given. */
    StoreOutboxPublisher(OutboxStore store, long maxPayloadBytes, Clock clock, Supplier<UUID> ids,
                         DeliveryTracing tracing, Set<String> completeAtPublish) {
        if (maxPayloadBytes < 1) {
            throw new IllegalArgumentException("maxPayloadBytes must be > 0, got: " + maxPayloadBytes);
        }
        this.store = Objects.requireNonNull(store, "store");
        this.maxPayloadBytes = maxPayloadBytes;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ids = Objects.requireNonNull(ids, "ids");
        this.tracing = Objects.requireNonNull(tracing, "tracing");
        this.completeAtPublish = Set.copyOf(completeAtPublish);
    }

    @Override
    public UUID publish(OutboxMessage message, DeliveryInfo deliveryInfo) {
        if (message == null) {
            throw new IllegalArgumentException("message must not be null");
        }
        if (deliveryInfo == null) {
            throw new IllegalArgumentException("deliveryInfo must not be null");
        }
        long size = message.payloadUtf8Length();
        if (size > maxPayloadBytes) {
            throw new IllegalArgumentException("payload must be at most " + maxPayloadBytes
                    + " bytes of UTF-8, got: " + size + " bytes (message type " + message.messageType() + ")");
        }
        Instant now = clock.instant();
        OutboxEntry entry = OutboxEntry.create(ids.get(), message, deliveryInfo, now)
                .withTraceContext(tracing.current());
        return store.insert(completeAtPublish.contains(entry.deliveryType()) ? entry.toDelivered(now) : entry);
    }
}
