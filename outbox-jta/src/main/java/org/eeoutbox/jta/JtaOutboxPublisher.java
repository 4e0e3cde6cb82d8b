package org.eeoutbox.jta;

import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.eeoutbox.DeliveryInfo;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxPublisher;

/**
 * The publisher applications inject: refuses delivery types the application has no deliverer
 * for, writes through a store on a {@link JtaConnectionProvider} (so in the caller's JTA
 * transaction, refusing to write without one) and wakes the local processor after the
 * transaction commits. Thread-safe.
 */
public final class JtaOutboxPublisher implements OutboxPublisher {

    private final OutboxPublisher storePublisher;
    private final AfterCommitWakeUp wakeUp;
    private final Set<String> deliveryTypes;

    /**
     * @param storePublisher a publisher whose store writes through a {@link JtaConnectionProvider}
     * @param deliveryTypes  the delivery types the application has deliverers for
     */
    public JtaOutboxPublisher(OutboxPublisher storePublisher, AfterCommitWakeUp wakeUp, Set<String> deliveryTypes) {
        this.storePublisher = Objects.requireNonNull(storePublisher, "storePublisher");
        this.wakeUp = Objects.requireNonNull(wakeUp, "wakeUp");
        this.deliveryTypes = Set.copyOf(deliveryTypes);
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException also when no deliverer handles the delivery's type: such an
     *                                  entry would never be claimed
     */
    @Override
    public UUID publish(OutboxMessage message, DeliveryInfo deliveryInfo) {
        // A null type is left to the store publisher, which names the argument (Set.copyOf sets
        // refuse contains(null)).
        if (deliveryInfo != null && deliveryInfo.deliveryType() != null
                && !deliveryTypes.contains(deliveryInfo.deliveryType())) {
            throw new IllegalArgumentException("deliveryInfo.deliveryType() '" + deliveryInfo.deliveryType()
                    + "' has no deliverer in this application; known delivery types: " + deliveryTypes
                    + " (Kafka deliveries need outbox-kafka and a Producer bean or outbox.kafka.producer.* properties)");
        }
        UUID id = storePublisher.publish(message, deliveryInfo);
        wakeUp.register();
        return id;
    }
}
