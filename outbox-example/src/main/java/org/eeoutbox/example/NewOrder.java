package org.eeoutbox.example;

import java.math.BigDecimal;

/**
 * The body of {@code POST /orders}: {@code {"customer": "c-42", "amount": 19.90}}.
 *
 * @param customer who orders, 1 to 200 characters
 * @param amount   the total, positive, at most 2 decimals
 */
public record NewOrder(String customer, BigDecimal amount) {

    /** Returns what is wrong with this request, or {@code null} if it is valid. */
    String problem() {
        if (customer == null || customer.isBlank() || customer.length() > 200) {
            return "customer must be 1 to 200 characters";
        }
        if (amount == null || amount.signum() <= 0 || amount.scale() > 2 || amount.precision() - amount.scale() > 10) {
            return "amount must be positive, below 10^10, with at most 2 decimals";
        }
        return null;
    }
}
