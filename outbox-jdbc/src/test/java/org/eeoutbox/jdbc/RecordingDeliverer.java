package org.eeoutbox.jdbc;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.OutboxEntry;

/** A deliverer whose outcome per entry is scripted, counting attempts and successes per id. */
final class RecordingDeliverer implements MessageDeliverer {

    private final String deliveryType;
    private final Function<OutboxEntry, DeliveryResult> outcome;
    final Map<UUID, AtomicInteger> attempts = new ConcurrentHashMap<>();
    final Map<UUID, AtomicInteger> successes = new ConcurrentHashMap<>();

    RecordingDeliverer(String deliveryType, Function<OutboxEntry, DeliveryResult> outcome) {
        this.deliveryType = deliveryType;
        this.outcome = outcome;
    }

    static RecordingDeliverer alwaysDelivering(String deliveryType) {
        return new RecordingDeliverer(deliveryType, entry -> DeliveryResult.delivered());
    }

    @Override
    public String deliveryType() {
        return deliveryType;
    }

    @Override
    public DeliveryResult deliver(OutboxEntry entry) {
        attempts.computeIfAbsent(entry.id(), id -> new AtomicInteger()).incrementAndGet();
        DeliveryResult result = outcome.apply(entry);
        if (result instanceof DeliveryResult.Delivered) {
            successes.computeIfAbsent(entry.id(), id -> new AtomicInteger()).incrementAndGet();
        }
        return result;
    }
}
