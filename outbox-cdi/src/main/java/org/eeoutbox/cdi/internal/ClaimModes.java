package org.eeoutbox.cdi.internal;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How each delivery type is claimed: {@code lock} (claim, delivery and update in one transaction)
 * or {@code lease} (a short claim, delivery with no transaction, a fenced completion), and how long
 * a lease lasts. Immutable.
 *
 * @param defaultMode the mode of delivery types without their own, {@code outbox.processor.claim-mode}
 * @param byType      the modes set per delivery type, {@code outbox.processor.claim-mode.<delivery-type>}
 * @param lease       how long a lease lasts, {@code outbox.processor.lease}
 */
record ClaimModes(String defaultMode, Map<String, String> byType, Duration lease) {

    static final String LOCK = "lock";
    static final String LEASE = "lease";

    ClaimModes {
        Objects.requireNonNull(defaultMode, "defaultMode");
        byType = Map.copyOf(byType);
        Objects.requireNonNull(lease, "lease");
    }

    /** Returns those of {@code deliveryTypes} claimed in lease mode. */
    Set<String> leased(Collection<String> deliveryTypes) {
        return deliveryTypes.stream().filter(type -> LEASE.equals(byType.getOrDefault(type, defaultMode)))
                .collect(Collectors.toUnmodifiableSet());
    }
}
