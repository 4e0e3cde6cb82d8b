package org.eeoutbox.admin;

import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;
import org.eeoutbox.OutboxStatus;

/**
 * Which entries an operation is about. Every criterion is optional ({@code null} or empty: any);
 * the criteria given must all hold. Ranges are half-open, {@code [from, to)}. Immutable; build it
 * from {@link #ANY} with the {@code with} methods.
 *
 * @param statuses          the statuses to match; empty for any
 * @param deliveryType      the exact delivery type
 * @param messageType       the exact message type
 * @param createdFrom       published at or after
 * @param createdTo         published before
 * @param lastAttemptFrom   last attempt ended at or after
 * @param lastAttemptTo     last attempt ended before
 * @param errorContains     text the last error contains (case-sensitive), at most
 *                          {@value #MAX_TEXT_LENGTH} characters
 */
public record EntryFilter(Set<OutboxStatus> statuses, String deliveryType, String messageType,
                          Instant createdFrom, Instant createdTo, Instant lastAttemptFrom, Instant lastAttemptTo,
                          String errorContains) {

    /** The longest text criterion accepted, in characters. */
    public static final int MAX_TEXT_LENGTH = 255;

    /** The filter that matches every entry. */
    public static final EntryFilter ANY = new EntryFilter(Set.of(), null, null, null, null, null, null, null);

    /**
     * @throws IllegalArgumentException naming the argument: a text criterion blank or too long, or
     *                                  a range whose end is not after its start
     */
    public EntryFilter {
        statuses = statuses == null || statuses.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(statuses));
        requireText("deliveryType", deliveryType);
        requireText("messageType", messageType);
        requireText("errorContains", errorContains);
        requireRange("created", createdFrom, createdTo);
        requireRange("lastAttempt", lastAttemptFrom, lastAttemptTo);
    }

    /** Returns a copy matching only these statuses. */
    public EntryFilter withStatuses(OutboxStatus first, OutboxStatus... more) {
        return new EntryFilter(EnumSet.of(first, more), deliveryType, messageType, createdFrom, createdTo,
                lastAttemptFrom, lastAttemptTo, errorContains);
    }

    /** Returns a copy matching only this delivery type. */
    public EntryFilter withDeliveryType(String type) {
        return new EntryFilter(statuses, type, messageType, createdFrom, createdTo, lastAttemptFrom, lastAttemptTo,
                errorContains);
    }

    /** Returns a copy matching only this message type. */
    public EntryFilter withMessageType(String type) {
        return new EntryFilter(statuses, deliveryType, type, createdFrom, createdTo, lastAttemptFrom, lastAttemptTo,
                errorContains);
    }

    /** Returns a copy matching only entries published in {@code [from, to)}; either may be {@code null}. */
    public EntryFilter withCreated(Instant from, Instant to) {
        return new EntryFilter(statuses, deliveryType, messageType, from, to, lastAttemptFrom, lastAttemptTo,
                errorContains);
    }

    /** Returns a copy matching only entries whose last attempt ended in {@code [from, to)}. */
    public EntryFilter withLastAttempt(Instant from, Instant to) {
        return new EntryFilter(statuses, deliveryType, messageType, createdFrom, createdTo, from, to, errorContains);
    }

    /** Returns a copy matching only entries whose last error contains {@code text}. */
    public EntryFilter withErrorContaining(String text) {
        return new EntryFilter(statuses, deliveryType, messageType, createdFrom, createdTo, lastAttemptFrom,
                lastAttemptTo, text);
    }

    private static void requireText(String name, String value) {
        if (value != null && (value.isBlank() || value.length() > MAX_TEXT_LENGTH)) {
            throw new IllegalArgumentException(name + " must be 1 to " + MAX_TEXT_LENGTH
                    + " characters and not blank when given, got " + value.length() + " characters");
        }
    }

    private static void requireRange(String name, Instant from, Instant to) {
        if (from != null && to != null && !to.isAfter(from)) {
            throw new IllegalArgumentException(name + "To must be after " + name + "From, got [" + from + ", " + to + ")");
        }
    }
}
