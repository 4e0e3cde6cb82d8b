package org.eeoutbox.jta;

import java.util.Objects;
import java.util.UUID;
import org.eeoutbox.DeliveryInfo;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxPublisher;

/**
 * The publisher applications inject: writes through a store on a {@link JtaConnectionProvider}
 * (so in the caller's JTA transaction, refusing to write without one) and wakes the local
 * processor after the transaction commits. Thread-safe.
 */
public final class JtaOutboxPublisher implements OutboxPublisher {

    private final OutboxPublisher storePublisher;
    private final AfterCommitWakeUp wakeUp;

    /**
     * @param storePublisher a publisher whose store writes through a {@link JtaConnectionProvider}
     */
    public JtaOutboxPublisher(OutboxPublisher storePublisher, AfterCommitWakeUp wakeUp) {
        this.storePublisher = Objects.requireNonNull(storePublisher, "storePublisher");
        this.wakeUp = Objects.requireNonNull(wakeUp, "wakeUp");
    }

    @Override
    public UUID publish(OutboxMessage message, DeliveryInfo deliveryInfo) {
        UUID id = storePublisher.publish(message, deliveryInfo);
        wakeUp.register();
        return id;
    }
}
