package org.eeoutbox.http;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.List;
import java.util.Locale;

/**
 * Reads a {@code Retry-After} header (RFC 9110 section 10.2.3): delta-seconds or an HTTP-date
 * in any of its three forms (IMF-fixdate, RFC 850, asctime).
 */
final class RetryAfter {

    /** The longest wait honoured; a later time is cut to this, so a receiver cannot park an entry for good. */
    static final Duration MAX_DELAY = Duration.ofDays(1);

    private static final List<DateTimeFormatter> HTTP_DATES = List.of(
            DateTimeFormatter.RFC_1123_DATE_TIME,
            new DateTimeFormatterBuilder().parseCaseInsensitive().appendPattern("EEEE, dd-MMM-")
                    .appendValueReduced(ChronoField.YEAR, 2, 2, 1970).appendPattern(" HH:mm:ss 'GMT'")
                    .toFormatter(Locale.US).withZone(ZoneOffset.UTC),
            new DateTimeFormatterBuilder().parseCaseInsensitive().appendPattern("EEE MMM ppd HH:mm:ss yyyy")
                    .toFormatter(Locale.US).withZone(ZoneOffset.UTC));

    private RetryAfter() {
    }

    /**
     * Returns the instant the header asks not to retry before, at most {@link #MAX_DELAY} after
     * {@code now}; {@code null} if the header is absent, unreadable, or not in the future.
     */
    static Instant parse(String value, Instant now) {
        if (value == null) {
            return null;
        }
        String text = value.trim();
        if (text.isEmpty()) {
            return null;
        }
        Instant limit = now.plus(MAX_DELAY);
        if (text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            if (text.length() > 12) {
                return limit;
            }
            long seconds = Long.parseLong(text);
            return seconds == 0 ? null : min(now.plusSeconds(seconds), limit);
        }
        for (DateTimeFormatter format : HTTP_DATES) {
            try {
                Instant at = Instant.from(format.parse(text));
                return at.isAfter(now) ? min(at, limit) : null;
            } catch (DateTimeException ignored) {
                // try the next form
            }
        }
        return null;
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
