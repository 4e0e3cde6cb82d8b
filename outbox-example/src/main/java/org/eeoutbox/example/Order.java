package org.eeoutbox.example;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * An order as stored, returned by the API and sent as the {@code order.created} event.
 *
 * @param id        the order's id (a UUID), chosen by the service
 * @param customer  who ordered
 * @param amount    the order's total
 * @param createdAt when the service accepted it (UTC, microseconds); consumers can measure the
 *                  event's delivery latency from it
 */
public record Order(String id, String customer, BigDecimal amount, Instant createdAt) {
}
