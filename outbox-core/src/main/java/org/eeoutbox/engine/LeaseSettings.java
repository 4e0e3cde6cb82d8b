package org.eeoutbox.engine;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * Which delivery types an {@link OutboxProcessor} claims in lease mode, and its leases' length.
 *
 * <p>In lease mode a batch is claimed in a short transaction that stamps a lease on its entries,
 * delivered with no transaction and no connection held, and completed in another short
 * transaction fenced by each lease's token (see {@link org.eeoutbox.spi.OutboxStore#lease}). The
 * other delivery types are claimed in lock mode: claim, delivery and update in one transaction.
 * Immutable.
 *
 * @param deliveryTypes the delivery types claimed in lease mode; empty: lock mode for every type
 * @param length        how long a lease lasts, {@code > 0}: it must exceed twice the longest
 *                      delivery of a batch (a worker keeps two batches in flight, the second may
 *                      wait for the first), or a slow batch is delivered again by another worker
 * @param owner         who holds the leases, shown to operators in {@code lease_owner}: 1 to 255
 *                      characters, one per instance
 */
public record LeaseSettings(Set<String> deliveryTypes, Duration length, String owner) {

    /** Lock mode for every delivery type. */
    public static final LeaseSettings NONE = new LeaseSettings(Set.of(), Duration.ofMinutes(2), "none");

    public LeaseSettings {
        deliveryTypes = Set.copyOf(Objects.requireNonNull(deliveryTypes, "deliveryTypes"));
        Objects.requireNonNull(length, "length");
        if (length.isNegative() || length.isZero()) {
            throw new IllegalArgumentException("length must be > 0, got: " + length);
        }
        Objects.requireNonNull(owner, "owner");
        if (owner.isBlank() || owner.length() > 255) {
            throw new IllegalArgumentException("owner must be 1 to 255 characters, got: '" + owner + "'");
        }
    }
}
