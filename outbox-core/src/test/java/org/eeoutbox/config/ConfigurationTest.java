package org.eeoutbox.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ConfigurationTest {

    private static final Property<Duration> TIMEOUT = Property.duration("x.timeout", Duration.ofSeconds(5),
            Duration.ofMillis(1), Duration.ofMinutes(5), "A timeout.");
    private static final Property<Integer> SIZE = Property.integer("x.size", 10, 1, 100, "A size.");
    private static final Property<String> NAME = Property.required("x.name", "a name", "A name.");
    private static final Property<String> URL = Property.text("x.service.<name>.url", null, "a URL", "A URL.");

    @Test
    void unsetPropertiesHaveTheirDefaults() {
        Configuration configuration = Configuration.of(Map.of("x.name", "a"));

        assertEquals(Duration.ofSeconds(5), configuration.get(TIMEOUT));
        assertEquals(10, configuration.get(SIZE));
        assertEquals("a", configuration.get(NAME));
        assertTrue(configuration.problems().isEmpty());
    }

    @Test
    void aValueAboveTheMaximumNamesThePropertyItsValueAndTheRange() {
        Configuration configuration = Configuration.of(Map.of("x.timeout", "10m", "x.name", "a"));

        assertEquals(Duration.ofSeconds(5), configuration.get(TIMEOUT), "the default, so that reading goes on");
        assertEquals(List.of("x.timeout=10m is invalid: expected a duration in [1ms, 5m], as ISO-8601 (PT10S) or "
                + "500ms, 10s, 5m, 2h, 7d"), configuration.problems());
    }

    @Test
    void everyProblemIsCollectedAndThrownTogether() {
        Configuration configuration = Configuration.of(Map.of("x.timeout", "soon", "x.size", "0"));
        configuration.get(TIMEOUT);
        configuration.get(SIZE);
        configuration.get(NAME);

        OutboxConfigurationException e = assertThrows(OutboxConfigurationException.class,
                configuration::throwIfInvalid);

        assertEquals(3, e.problems().size(), e.getMessage());
        assertTrue(e.problems().contains("x.size=0 is invalid: expected a whole number in [1, 100]"), e.getMessage());
        assertTrue(e.problems().contains("x.name is required: a name"), e.getMessage());
        assertTrue(e.getMessage().startsWith("Invalid outbox configuration:"), e.getMessage());
    }

    @Test
    void eachValueIsParsedOnceAndItsProblemReportedOnce() {
        AtomicInteger reads = new AtomicInteger();
        Configuration configuration = Configuration.of(key -> {
            reads.incrementAndGet();
            return java.util.Optional.of("0");
        }, List::of);

        configuration.get(SIZE);
        configuration.get(SIZE);

        assertEquals(1, reads.get());
        assertEquals(1, configuration.problems().size());
    }

    @Test
    void valuesAreStrippedAndAnEmptyValueIsUnset() {
        Configuration configuration = Configuration.of(Map.of("x.size", " 42 ", "x.timeout", "  "));

        assertEquals(42, configuration.get(SIZE));
        assertEquals(Duration.ofSeconds(5), configuration.get(TIMEOUT));
        assertTrue(configuration.problems().isEmpty());
    }

    @Test
    void aFamilyOfKeysIsReadByItsPattern() {
        Configuration configuration = Configuration.of(Map.of("x.service.a.url", "http://a", "x.service.b.url", "",
                "x.service.url", "http://none", "x.service.c.port", "80"));

        assertEquals(Map.of("x.service.a.url", "http://a"), configuration.matching(URL));
        assertTrue(URL.matches("x.service.my.dotted.url"));
        assertFalse(URL.matches("x.service.url"));
    }

    @Test
    void keysUnderAPrefixAreHandedOnWithoutIt() {
        Configuration configuration = Configuration.of(Map.of("x.producer.acks", "all", "x.producer.", "ignored",
                "x.other", "1"));

        assertEquals(Map.of("acks", "all"), configuration.withPrefix("x.producer."));
    }

    @Test
    void anUnknownKeyIsReportedWithTheClosestDeclaredName() {
        Configuration configuration = Configuration.of(Map.of("x.tiemout", "5s", "x.size", "3",
                "x.service.a.url", "http://a", "y.other", "1"));

        List<String> warnings = configuration.unknownKeys("x.", List.of(TIMEOUT, SIZE, NAME, URL));

        assertEquals(List.of("x.tiemout is not an outbox property and is ignored; did you mean x.timeout?"), warnings);
    }

    @Test
    void declarationsRefuseADefaultOutsideTheirRange() {
        assertThrows(IllegalArgumentException.class, () -> Property.integer("x.n", 0, 1, 10, "N."));
        assertThrows(IllegalArgumentException.class,
                () -> Property.oneOf("x.kind", "c", List.of("a", "b"), "Kind."));
    }

    @Test
    void everyKindParsesWhatItDocuments() {
        Configuration configuration = Configuration.of(Map.of("b", "TRUE", "k", "B", "d", "PT2S", "s", "512KiB",
                "f", "0.5"));

        assertEquals(true, configuration.get(Property.bool("b", false, "B.")));
        assertEquals("b", configuration.get(Property.oneOf("k", "a", List.of("a", "b"), "K.")));
        assertEquals(Duration.ofSeconds(2), configuration.get(Property.duration("d", Duration.ZERO, Duration.ZERO,
                null, "D.")));
        assertEquals(512 * 1024L, configuration.get(Property.size("s", 1, 1, 1 << 20, "S.")));
        assertEquals(0.5, configuration.get(Property.decimal("f", 0.1, 0, 1, "F.")));
        assertNull(configuration.get(Property.text("t", null, "text", "T.")));
        assertTrue(configuration.problems().isEmpty(), configuration.problems().toString());
    }
}
