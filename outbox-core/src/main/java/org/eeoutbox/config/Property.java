package org.eeoutbox.config;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * One configuration property, declared once: its name, what it means, its default and the values
 * it accepts. {@link Configuration#get} parses it; the configuration reference in
 * {@code docs/configuration.md} is generated from these declarations.
 *
 * <p>A name may hold placeholders in angle brackets, such as
 * {@code outbox.http.service.<name>.url}: such a declaration stands for every key that fills them
 * ({@link #matches}); it is read with {@link Configuration#matching}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param <T> the type of the parsed value
 */
public final class Property<T> {

    private static final Pattern RELATIVE_PATH = Pattern.compile("[A-Za-z0-9._~-]+(/[A-Za-z0-9._~-]+)*");

    private static final Pattern PLACEHOLDER = Pattern.compile("<[^>]+>");
    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(|b|kib|mib)");

    private final String name;
    private final String description;
    private final String accepted;
    private final T defaultValue;
    private final String defaultText;
    private final boolean required;
    private final Function<String, Optional<T>> parser;
    private final Pattern keys;

    private Property(String name, String description, String accepted, T defaultValue, String defaultText,
                     boolean required, Function<String, Optional<T>> parser) {
        this.name = Objects.requireNonNull(name, "name");
        this.description = Objects.requireNonNull(description, "description");
        this.accepted = Objects.requireNonNull(accepted, "accepted");
        this.defaultValue = defaultValue;
        this.defaultText = defaultText;
        this.required = required;
        this.parser = parser;
        this.keys = Pattern.compile(PLACEHOLDER.splitAsStream(name).map(Pattern::quote)
                .reduce((left, right) -> left + ".+" + right).orElse("") + (name.endsWith(">") ? ".+" : ""));
    }

    /** A property that must be set, with no default. */
    public static Property<String> required(String name, String accepted, String description) {
        return new Property<>(name, description, accepted, null, null, true, Optional::of);
    }

    /** A text property; {@code defaultValue} {@code null} means unset by default. */
    public static Property<String> text(String name, String defaultValue, String accepted, String description) {
        return new Property<>(name, description, accepted, defaultValue, defaultValue, false, Optional::of);
    }

    /**
     * A URL path relative to the application's JAX-RS root, such as a library resource's base
     * path: segments of letters, digits and {@code . _ ~ -}; parsed without its leading and
     * trailing {@code /}.
     */
    public static Property<String> relativePath(String name, String defaultValue, String description) {
        return new Property<>(name, description,
                "a path of letters, digits and . _ ~ - segments, relative to the application's JAX-RS root",
                defaultValue, defaultValue, false, raw -> {
                    String path = raw.replaceAll("^/+|/+$", "");
                    return RELATIVE_PATH.matcher(path).matches() ? Optional.of(path) : Optional.empty();
                });
    }

    /** {@code true} or {@code false}, in any case. */
    public static Property<Boolean> bool(String name, boolean defaultValue, String description) {
        return new Property<>(name, description, "true or false", defaultValue, String.valueOf(defaultValue), false,
                raw -> switch (raw.toLowerCase(Locale.ROOT)) {
                    case "true" -> Optional.of(Boolean.TRUE);
                    case "false" -> Optional.of(Boolean.FALSE);
                    default -> Optional.empty();
                });
    }

    /** One of {@code values}, compared without regard to case; parsed to its lower-case form. */
    public static Property<String> oneOf(String name, String defaultValue, List<String> values, String description) {
        if (!values.contains(defaultValue)) {
            throw new IllegalArgumentException(name + ": the default " + defaultValue + " is not one of " + values);
        }
        return oneOfOrUnset(name, defaultValue, values, description);
    }

    /** As {@link #oneOf}, unset by default: {@link Configuration#find} tells whether it was set. */
    public static Property<String> optionalOneOf(String name, List<String> values, String description) {
        return oneOfOrUnset(name, null, values, description);
    }

    private static Property<String> oneOfOrUnset(String name, String defaultValue, List<String> values,
                                                 String description) {
        List<String> accepted = List.copyOf(values);
        return new Property<>(name, description, "one of " + String.join(", ", accepted), defaultValue, defaultValue,
                false, raw -> Optional.of(raw.toLowerCase(Locale.ROOT)).filter(accepted::contains));
    }

    /** A whole number in {@code [min, max]}. */
    public static Property<Integer> integer(String name, int defaultValue, int min, int max, String description) {
        checkDefault(name, defaultValue >= min && defaultValue <= max, defaultValue);
        return new Property<>(name, description, "a whole number in [" + min + ", " + max + "]", defaultValue,
                String.valueOf(defaultValue), false, raw -> {
                    try {
                        int value = Integer.parseInt(raw);
                        return value >= min && value <= max ? Optional.of(value) : Optional.empty();
                    } catch (NumberFormatException e) {
                        return Optional.empty();
                    }
                });
    }

    /** A number in {@code [min, maxExclusive)}. */
    public static Property<Double> decimal(String name, double defaultValue, double min, double maxExclusive,
                                           String description) {
        checkDefault(name, defaultValue >= min && defaultValue < maxExclusive, defaultValue);
        return new Property<>(name, description, "a number in [" + format(min) + ", " + format(maxExclusive) + ")",
                defaultValue, format(defaultValue), false, raw -> {
                    try {
                        double value = Double.parseDouble(raw);
                        return value >= min && value < maxExclusive ? Optional.of(value) : Optional.empty();
                    } catch (NumberFormatException e) {
                        return Optional.empty();
                    }
                });
    }

    /**
     * A duration in {@code [min, max]}, as ISO-8601 ({@code PT10S}) or a short form
     * ({@code 500ms}, {@code 10s}, {@code 5m}, {@code 2h}, {@code 7d}).
     *
     * @param max the longest accepted, or {@code null} for no upper bound
     */
    public static Property<Duration> duration(String name, Duration defaultValue, Duration min, Duration max,
                                              String description) {
        checkDefault(name, defaultValue.compareTo(min) >= 0 && (max == null || defaultValue.compareTo(max) <= 0),
                defaultValue);
        return durationOrUnset(name, defaultValue, min, max, description);
    }

    /** As {@link #duration}, unset by default: {@link Configuration#find} tells whether it was set. */
    public static Property<Duration> optionalDuration(String name, Duration min, Duration max, String description) {
        return durationOrUnset(name, null, min, max, description);
    }

    private static Property<Duration> durationOrUnset(String name, Duration defaultValue, Duration min, Duration max,
                                                      String description) {
        String range = max == null ? "of at least " + format(min) : "in [" + format(min) + ", " + format(max) + "]";
        return new Property<>(name, description, "a duration " + range + ", as ISO-8601 (PT10S) or 500ms, 10s, 5m, "
                + "2h, 7d", defaultValue, defaultValue == null ? null : format(defaultValue), false,
                raw -> parseDuration(raw).filter(value -> value.compareTo(min) >= 0
                        && (max == null || value.compareTo(max) <= 0)));
    }

    /** A size in bytes in {@code [min, max]}, as bytes or with a {@code KiB} or {@code MiB} suffix. */
    public static Property<Long> size(String name, long defaultValue, long min, long max, String description) {
        checkDefault(name, defaultValue >= min && defaultValue <= max, defaultValue);
        return new Property<>(name, description, "a size in [" + min + ", " + max
                + "] bytes, as bytes or with KiB or MiB (512KiB, 1MiB)", defaultValue, formatSize(defaultValue), false,
                raw -> parseSize(raw).filter(value -> value >= min && value <= max));
    }

    /** Returns the name, or the pattern of names when it has placeholders. */
    public String name() {
        return name;
    }

    /** Returns what the property means, in one sentence. */
    public String description() {
        return description;
    }

    /** Returns what the property accepts, as shown in error messages and the reference. */
    public String accepted() {
        return accepted;
    }

    /** Returns the default as the reference shows it; empty for a required property or one unset by default. */
    public Optional<String> defaultText() {
        return Optional.ofNullable(defaultText);
    }

    /** Returns whether the property must be set. */
    public boolean required() {
        return required;
    }

    /** Returns whether {@code key} is this property's name or fills its placeholders. */
    public boolean matches(String key) {
        return keys.matcher(key).matches();
    }

    /** Returns the default value; {@code null} for a required property or one unset by default. */
    T defaultValue() {
        return defaultValue;
    }

    /** Parses a stripped, non-empty value; empty when it is not accepted. */
    Optional<T> parse(String raw) {
        return parser.apply(raw);
    }

    @Override
    public String toString() {
        return name;
    }

    private static void checkDefault(String name, boolean inRange, Object defaultValue) {
        if (!inRange) {
            throw new IllegalArgumentException(name + ": the default " + defaultValue + " is outside the accepted range");
        }
    }

    static Optional<Duration> parseDuration(String text) {
        String value = text.strip();
        var matcher = SHORT_DURATION.matcher(value.toLowerCase(Locale.ROOT));
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
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Optional<Long> parseSize(String text) {
        var matcher = SIZE.matcher(text.toLowerCase(Locale.ROOT));
        if (!matcher.matches()) {
            return Optional.empty();
        }
        long unit = switch (matcher.group(2)) {
            case "kib" -> 1024L;
            case "mib" -> 1024L * 1024;
            default -> 1L;
        };
        try {
            return Optional.of(Math.multiplyExact(Long.parseLong(matcher.group(1)), unit));
        } catch (ArithmeticException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static String format(Duration duration) {
        if (duration.isZero()) {
            return "0s";
        }
        for (var unit : List.of(Duration.ofDays(1), Duration.ofHours(1), Duration.ofMinutes(1), Duration.ofSeconds(1))) {
            if (duration.compareTo(unit) >= 0 && duration.toMillis() % unit.toMillis() == 0) {
                return duration.toMillis() / unit.toMillis() + switch ((int) (unit.toMillis() / 1000)) {
                    case 86_400 -> "d";
                    case 3_600 -> "h";
                    case 60 -> "m";
                    default -> "s";
                };
            }
        }
        return duration.toMillis() + "ms";
    }

    private static String format(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? String.valueOf((long) value) : String.valueOf(value);
    }

    private static String formatSize(long bytes) {
        if (bytes % (1024L * 1024) == 0) {
            return bytes / (1024L * 1024) + "MiB";
        }
        return bytes % 1024 == 0 ? bytes / 1024 + "KiB" : String.valueOf(bytes);
    }
}
