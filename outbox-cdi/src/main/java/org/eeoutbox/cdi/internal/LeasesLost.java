package org.eeoutbox.cdi.internal;

/**
 * The CDI event fired when a lease-mode batch was written with some of its leases lost
 * ({@link org.eeoutbox.engine.OutboxListener#onLeasesLost}).
 *
 * @param count the leases lost, {@code >= 1}
 */
public record LeasesLost(int count) {
}
