package org.eeoutbox.admin.rest;

import jakarta.ws.rs.core.MultivaluedMap;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.admin.EntryFilter;

/**
 * A request's query parameters, checked before anything runs: every value that is malformed,
 * out of range, too long, repeated where one is expected, or of a parameter the endpoint does not
 * know is refused with a {@link BadParameter} naming the parameter (answered 400). Not
 * thread-safe: one per request.
 */
final class Parameters {

    /** The filter parameters, shared by the list and bulk endpoints. */
    static final List<String> FILTER = List.of("status", "deliveryType", "messageType", "createdFrom", "createdTo",
            "lastAttemptFrom", "lastAttemptTo", "errorContains");

    /** The longest value of any parameter, in characters (page tokens included). */
    static final int MAX_VALUE_LENGTH = 512;

    private static final Pattern UUID_TEXT = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private final MultivaluedMap<String, String> query;

    /**
     * @param known the parameters the endpoint takes
     * @throws BadParameter for a parameter not in {@code known} or a value too long
     */
    Parameters(MultivaluedMap<String, String> query, List<String> known) {
        this.query = query;
        for (String name : query.keySet()) {
            if (!known.contains(name)) {
                throw bad(name, "unknown parameter; this endpoint takes " + String.join(", ", known));
            }
            for (String value : query.get(name)) {
                if (value.length() > MAX_VALUE_LENGTH) {
                    throw bad(name, "at most " + MAX_VALUE_LENGTH + " characters, got " + value.length());
                }
            }
        }
    }

    /** Returns the parameter's only value, or {@code null} when absent. */
    String single(String name) {
        List<String> values = query.get(name);
        if (values == null || values.isEmpty()) {
            return null;
        }
        if (values.size() > 1) {
            throw bad(name, "given " + values.size() + " times, expected once");
        }
        return values.get(0);
    }

    int integer(String name, int defaultValue, int min, int max) {
        String raw = single(name);
        if (raw == null) {
            return defaultValue;
        }
        try {
            int value = Integer.parseInt(raw);
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw bad(name, "a whole number from " + min + " to " + max + " expected, got: " + quote(raw));
    }

    boolean bool(String name, boolean defaultValue) {
        String raw = single(name);
        if (raw == null) {
            return defaultValue;
        }
        return switch (raw.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw bad(name, "true or false expected, got: " + quote(raw));
        };
    }

    /** An ISO-8601 duration ({@code PT10M}) from zero to {@code max}. */
    Duration duration(String name, Duration defaultValue, Duration max) {
        String raw = single(name);
        if (raw == null) {
            return defaultValue;
        }
        try {
            Duration value = Duration.parse(raw);
            if (!value.isNegative() && value.compareTo(max) <= 0) {
                return value;
            }
        } catch (DateTimeParseException e) {
            // reported below
        }
        throw bad(name, "an ISO-8601 duration from PT0S to " + max + " expected, got: " + quote(raw));
    }

    /** The entry filter of the {@link #FILTER} parameters. */
    EntryFilter filter() {
        Set<OutboxStatus> statuses = EnumSet.noneOf(OutboxStatus.class);
        for (String value : query.getOrDefault("status", List.of())) {
            for (String status : value.split(",", -1)) {
                statuses.add(status("status", status.strip()));
            }
        }
        try {
            return new EntryFilter(statuses, text("deliveryType"), text("messageType"), instant("createdFrom"),
                    instant("createdTo"), instant("lastAttemptFrom"), instant("lastAttemptTo"), text("errorContains"));
        } catch (IllegalArgumentException e) {
            throw bad(e, null);
        }
    }

    /** A path parameter that must be an entry id in the canonical 36-character form. */
    static UUID id(String raw) {
        if (raw == null || !UUID_TEXT.matcher(raw).matches()) {
            throw bad("id", "an entry id (a UUID such as 0190c6f4-5d3a-7b2e-9c1d-2f4e6a8b0c1d) expected, got: "
                    + quote(raw));
        }
        return UUID.fromString(raw);
    }

    /** A 400 for an {@link IllegalArgumentException} of the admin API, naming the parameter its message starts with. */
    static BadParameter bad(IllegalArgumentException e, String fallbackParameter) {
        String message = String.valueOf(e.getMessage());
        String first = message.split("[ :]", 2)[0];
        boolean named = FILTER.contains(first) || List.of("size", "after", "maximum", "spread", "deliveryType",
                "stuckAfter").contains(first);
        return new BadParameter(named ? first : fallbackParameter, message);
    }

    static BadParameter bad(String parameter, String message) {
        return new BadParameter(parameter, parameter + ": " + message);
    }

    private String text(String name) {
        String raw = single(name);
        if (raw != null && (raw.isBlank() || raw.length() > EntryFilter.MAX_TEXT_LENGTH)) {
            throw bad(name, "1 to " + EntryFilter.MAX_TEXT_LENGTH + " characters, not blank, expected");
        }
        return raw;
    }

    private Instant instant(String name) {
        String raw = single(name);
        if (raw == null) {
            return null;
        }
        try {
            return Instant.parse(raw);
        } catch (DateTimeParseException e) {
            throw bad(name, "an ISO-8601 instant such as 2026-12-03T10:15:30Z expected, got: " + quote(raw));
        }
    }

    private static OutboxStatus status(String name, String raw) {
        try {
            return OutboxStatus.valueOf(raw.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw bad(name, "one of " + EnumSet.allOf(OutboxStatus.class) + " expected, got: " + quote(raw));
        }
    }

    /** The value for an error message: quoted, and cut to 64 characters. */
    private static String quote(String raw) {
        if (raw == null) {
            return "nothing";
        }
        return "\"" + (raw.length() > 64 ? raw.substring(0, 64) + "…" : raw) + "\"";
    }
}
