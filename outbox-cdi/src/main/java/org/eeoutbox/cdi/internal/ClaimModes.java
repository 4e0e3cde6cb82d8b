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
 * a lease lasts. A type's own setting wins, then the setting for all types, then its transport's
 * default ({@link org.eeoutbox.spi.TransportProvider#leasedByDefault()}). Immutable.
 *
 * @param defaultMode the mode of delivery types without their own, {@code outbox.processor.claim-mode};
 *                    {@code null} when unset: each type then takes its transport's default
 * @param byType      the modes set per delivery type, {@code outbox.processor.claim-mode.<delivery-type>}
 * @param lease       how long a lease lasts, {@code outbox.processor.lease}
 */
record ClaimModes(String defaultMode, Map<String, String> byType, Duration lease) {

    static final String LOCK = "lock";
    static final String LEASE = "lease";

    ClaimModes {
        byType = Map.copyOf(byType);
        Objects.requireNonNull(lease, "lease");
    }

    /**
     * Returns those of {@code deliveryTypes} claimed in lease mode.
     *
     * @param leasedByDefault the delivery types whose transport leases when nothing is configured
     */
    Set<String> leased(Collection<String> deliveryTypes, Set<String> leasedByDefault) {
        return deliveryTypes.stream().filter(type -> LEASE.equals(modeOf(type, leasedByDefault)))
                .collect(Collectors.toUnmodifiableSet());
    }

    private String modeOf(String deliveryType, Set<String> leasedByDefault) {
        String configured = byType.getOrDefault(deliveryType, defaultMode);
        if (configured != null) {
            return configured;
        }
        return leasedByDefault.contains(deliveryType) ? LEASE : LOCK;
    }
}
