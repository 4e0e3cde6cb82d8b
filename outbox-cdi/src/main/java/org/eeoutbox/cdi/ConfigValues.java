package org.eeoutbox.cdi;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads typed, range-checked values from a string source (MicroProfile Config in a server), and
 * collects every problem instead of stopping at the first, so one failed deployment lists all
 * bad properties. Each problem names the property, the value and what is accepted.
 *
 * <p>Durations accept ISO-8601 ({@code PT10S}) and the short forms {@code 500ms}, {@code 10s},
 * {@code 5m}, {@code 2h}, {@code 7d}. Sizes accept bytes ({@code 1048576}) or {@code KiB},
 * {@code MiB} suffixes. Not thread-safe: one instance per reading.
 */
final class ConfigValues {

    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(|b|kib|mib)");

    private final Function<String, Optional<String>> source;
    private final List<String> problems = new ArrayList<>();

    ConfigValues(Function<String, Optional<String>> source) {
        this.source = source;
    }

    /** Returns the problems found so far, one line each. */
    List<String> problems() {
        return List.copyOf(problems);
    }

    Optional<String> string(String name) {
        return source.apply(name).map(String::strip).filter(value -> !value.isEmpty());
    }

    String requiredString(String name, String hint) {
        Optional<String> value = string(name);
        if (value.isEmpty()) {
            problems.add(name + " is required: " + hint);
            return null;
        }
        return value.get();
    }

    boolean bool(String name, boolean defaultValue) {
        Optional<String> raw = string(name);
        if (raw.isEmpty()) {
            return defaultValue;
        }
        String value = raw.get().toLowerCase(Locale.ROOT);
        if (!value.equals("true") && !value.equals("false")) {
            problems.add(name + "=" + raw.get() + " is invalid: expected true or false");
            return defaultValue;
        }
        return Boolean.parseBoolean(value);
    }

    /** One of {@code accepted}, compared without regard to case. */
    String oneOf(String name, String defaultValue, List<String> accepted) {
        Optional<String> raw = string(name);
        if (raw.isEmpty()) {
            return defaultValue;
        }
        String value = raw.get().toLowerCase(Locale.ROOT);
        if (accepted.contains(value)) {
            return value;
        }
        problems.add(name + "=" + raw.get() + " is invalid: expected one of " + String.join(", ", accepted));
        return defaultValue;
    }

    int integer(String name, int defaultValue, int min, int max) {
        Optional<String> raw = string(name);
        if (raw.isEmpty()) {
            return defaultValue;
        }
        try {
            int value = Integer.parseInt(raw.get());
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problems.add(name + "=" + raw.get() + " is invalid: expected a whole number in [" + min + ", " + max + "]");
        return defaultValue;
    }

    double decimal(String name, double defaultValue, double min, double maxExclusive, String range) {
        Optional<String> raw = string(name);
        if (raw.isEmpty()) {
            return defaultValue;
        }
        try {
            double value = Double.parseDouble(raw.get());
            if (value >= min && value < maxExclusive) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problems.add(name + "=" + raw.get() + " is invalid: expected a number in " + range);
        return defaultValue;
    }

    /** A duration of at least {@code min}. */
    Duration duration(String name, Duration defaultValue, Duration min) {
        Optional<String> raw = string(name);
        if (raw.isEmpty()) {
            return defaultValue;
        }
        Optional<Duration> value = parseDuration(raw.get());
        if (value.isPresent() && value.get().compareTo(min) >= 0) {
            return value.get();
        }
        problems.add(name + "=" + raw.get() + " is invalid: expected a duration of at least " + format(min)
                + ", as ISO-8601 (PT10S) or 500ms, 10s, 5m, 2h, 7d");
        return defaultValue;
    }

    /** A size in bytes in {@code [min, max]}. */
    long size(String name, long defaultValue, long min, long max) {
        Optional<String> raw = string(name);
        if (raw.isEmpty()) {
            return defaultValue;
        }
        Matcher matcher = SIZE.matcher(raw.get().toLowerCase(Locale.ROOT));
        if (matcher.matches()) {
            try {
                long unit = switch (matcher.group(2)) {
                    case "kib" -> 1024L;
                    case "mib" -> 1024L * 1024;
                    default -> 1L;
                };
                long value = Math.multiplyExact(Long.parseLong(matcher.group(1)), unit);
                if (value >= min && value <= max) {
                    return value;
                }
            } catch (ArithmeticException | NumberFormatException e) {
                // reported below
            }
        }
        problems.add(name + "=" + raw.get() + " is invalid: expected a size in [" + min + ", " + max
                + "] bytes, as bytes or with KiB or MiB (512KiB, 1MiB)");
        return defaultValue;
    }

    /** Records a problem found by a check across several values. */
    void problem(String message) {
        problems.add(message);
    }

    static Optional<Duration> parseDuration(String text) {
        String value = text.strip();
        Matcher matcher = SHORT_DURATION.matcher(value.toLowerCase(Locale.ROOT));
        try {
            if (matcher.matches()) {
                long amount = Long.parseLong(matcher.group(1));
                return Optional.of(switch (matcher.group(2)) {
                    case "ms" -> Duration.ofMillis(amount);
                    case "s" -> Duration.ofSeconds(amount);
                    case "m" -> Duration.ofMinutes(amount);
                    case "h" -> Duration.ofHours(amount);
                    default -> Duration.ofDays(amount);
                });
            }
            return Optional.of(Duration.parse(value));
        } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static String format(Duration duration) {
        return duration.toMillis() < 1000 ? duration.toMillis() + "ms" : duration.toSeconds() + "s";
    }
}
