package org.eeoutbox.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The configuration as read from a source of text values (MicroProfile Config in a server):
 * parses each {@link Property} once, and collects every problem instead of stopping at the first,
 * so one failed deployment lists all bad properties, each with its value and what is accepted.
 *
 * <p>Values are stripped; an empty value counts as unset. A value of a property with
 * placeholders is read with {@link #matching}, and values under a prefix handed to another
 * library with {@link #withPrefix}. Values read under such a family are never echoed in
 * problems: they may carry credentials.
 *
 * <p>Thread-safe.
 */
public final class Configuration {

    private final Function<String, Optional<String>> source;
    private final Supplier<? extends Iterable<String>> names;
    private final Map<String, Optional<?>> parsed = new HashMap<>();
    private final List<String> problems = new ArrayList<>();

    private Configuration(Function<String, Optional<String>> source, Supplier<? extends Iterable<String>> names) {
        this.source = Objects.requireNonNull(source, "source");
        this.names = Objects.requireNonNull(names, "names");
    }

    /**
     * @param source a key's value, empty when unset
     * @param names  every key the source holds, for {@link #matching}, {@link #withPrefix} and
     *               {@link #unknownKeys}
     */
    public static Configuration of(Function<String, Optional<String>> source,
                                   Supplier<? extends Iterable<String>> names) {
        return new Configuration(source, names);
    }

    /** A configuration of fixed values, for tests and Java SE use. */
    public static Configuration of(Map<String, String> values) {
        Map<String, String> copy = Map.copyOf(values);
        return new Configuration(key -> Optional.ofNullable(copy.get(key)), copy::keySet);
    }

    /**
     * Returns the property's value: the configured one, or its default when unset. A value that is
     * not accepted, or a required property that is unset, is recorded as a problem and the
     * default (possibly {@code null}) is returned, so that reading can go on.
     */
    public synchronized <T> T get(Property<T> property) {
        return find(property).orElse(property.defaultValue());
    }

    /** Returns the configured value of the property, empty when unset or not accepted. */
    @SuppressWarnings("unchecked") // the cache holds each property's own type under its name
    public synchronized <T> Optional<T> find(Property<T> property) {
        Optional<?> cached = parsed.get(property.name());
        if (cached == null) {
            cached = parse(property);
            parsed.put(property.name(), cached);
        }
        return (Optional<T>) cached;
    }

    /**
     * Returns the values of the keys that fill the placeholders of {@code family} (such as
     * {@code outbox.http.service.<name>.url}), by key, sorted; empty values are left out.
     */
    public Map<String, String> matching(Property<?> family) {
        Map<String, String> values = new TreeMap<>();
        for (String key : names.get()) {
            if (family.matches(key)) {
                value(key).ifPresent(value -> values.put(key, value));
            }
        }
        return values;
    }

    /**
     * Returns the values of the keys under {@code prefix}, by key with the prefix removed,
     * sorted; empty values are left out.
     */
    public Map<String, String> withPrefix(String prefix) {
        Map<String, String> values = new TreeMap<>();
        for (String key : names.get()) {
            if (key.startsWith(prefix) && key.length() > prefix.length()) {
                value(key).ifPresent(value -> values.put(key.substring(prefix.length()), value));
            }
        }
        return values;
    }

    /**
     * Records a problem found by a check across values, or by a transport; one sentence naming the
     * property. A sentence already recorded (two transports checking a property they share) is
     * recorded once.
     */
    public synchronized void problem(String sentence) {
        if (!problems.contains(sentence)) {
            problems.add(sentence);
        }
    }

    /** Returns the problems recorded so far, in order. */
    public synchronized List<String> problems() {
        return List.copyOf(problems);
    }

    /**
     * @throws OutboxConfigurationException listing every problem recorded so far, if any
     */
    public void throwIfInvalid() {
        List<String> found = problems();
        if (!found.isEmpty()) {
            throw new OutboxConfigurationException(found);
        }
    }

    /**
     * Returns a warning for each key under {@code prefix} that no declared property matches, naming
     * the closest declared one: a misspelled key is otherwise ignored and its default used.
     */
    public List<String> unknownKeys(String prefix, Collection<Property<?>> declared) {
        List<String> warnings = new ArrayList<>();
        for (String key : names.get()) {
            if (!key.startsWith(prefix) || declared.stream().anyMatch(property -> property.matches(key))) {
                continue;
            }
            String closest = declared.stream().map(Property::name)
                    .min((left, right) -> Integer.compare(distance(key, left), distance(key, right)))
                    .orElse("");
            warnings.add(key + " is not an outbox property and is ignored; did you mean " + closest + "?");
        }
        return warnings;
    }

    private Optional<String> value(String key) {
        return source.apply(key).map(String::strip).filter(value -> !value.isEmpty());
    }

    private <T> Optional<T> parse(Property<T> property) {
        Optional<String> raw = value(property.name());
        if (raw.isEmpty()) {
            if (property.required()) {
                problems.add(property.name() + " is required: " + property.accepted());
            }
            return Optional.empty();
        }
        Optional<T> value = property.parse(raw.get());
        if (value.isEmpty()) {
            problems.add(property.name() + "=" + raw.get() + " is invalid: expected " + property.accepted());
        }
        return value;
    }

    /** The Levenshtein distance, placeholders counting as the text they stand for would. */
    private static int distance(String key, String name) {
        int[] previous = new int[name.length() + 1];
        int[] current = new int[name.length() + 1];
        for (int j = 0; j <= name.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= key.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= name.length(); j++) {
                int substitution = previous[j - 1] + (key.charAt(i - 1) == name.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[name.length()];
    }
}
