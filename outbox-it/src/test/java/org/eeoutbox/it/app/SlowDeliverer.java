package org.eeoutbox.it.app;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.eeoutbox.DeliveryInfo;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.OutboxEntry;

/**
 * An application-provided deliverer of type {@value #TYPE}: its first attempt fails at once as
 * retriable, so that the retry comes from a scheduled poll rather than the after-commit wake-up;
 * later attempts succeed after a pause the test sets, so a batch can be made to outlive its
 * transaction. Thread-safe.
 */
@ApplicationScoped
public class SlowDeliverer implements MessageDeliverer {

    /** The delivery type this deliverer handles. */
    public static final String TYPE = "it.slow";

    /** Where to publish a message for this deliverer. */
    public static final DeliveryInfo DELIVERY = new DeliveryInfo() {
        @Override
        public String deliveryType() {
            return TYPE;
        }

        @Override
        public String metadataJson() {
            return "{}";
        }
    };

    private volatile Duration pause = Duration.ZERO;
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicInteger returned = new AtomicInteger();

    /** Sets how long each delivery takes from now on. */
    public void pause(Duration pause) {
        this.pause = pause;
    }

    /** Returns how many deliveries were attempted. */
    public int calls() {
        return calls.get();
    }

    /** Returns how many deliveries returned their result (to the batch that called them). */
    public int returned() {
        return returned.get();
    }

    @Override
    public String deliveryType() {
        return TYPE;
    }

    @Override
    public DeliveryResult deliver(OutboxEntry entry) {
        try {
            if (calls.incrementAndGet() == 1) {
                return DeliveryResult.retriable("first attempt");
            }
            Thread.sleep(pause.toMillis());
            return DeliveryResult.delivered();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return DeliveryResult.retriable("interrupted");
        } finally {
            returned.incrementAndGet();
        }
    }
}
