package org.eeoutbox.admin.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.admin.EntryFilter;
import org.junit.jupiter.api.Test;

class ParametersTest {

    private static final List<String> KNOWN = List.of("status", "deliveryType", "messageType", "createdFrom",
            "createdTo", "lastAttemptFrom", "lastAttemptTo", "errorContains", "size", "spread");

    @Test
    void readsAFilter() {
        EntryFilter filter = parameters("status", "failed,PENDING", "deliveryType", "http",
                "createdFrom", "2026-12-01T00:00:00Z", "errorContains", "404").filter();

        assertEquals(Set.of(OutboxStatus.FAILED, OutboxStatus.PENDING), filter.statuses());
        assertEquals("http", filter.deliveryType());
        assertEquals(Instant.parse("2026-12-01T00:00:00Z"), filter.createdFrom());
        assertEquals("404", filter.errorContains());
    }

    @Test
    void eachMalformedValueIsRefusedNamingItsParameter() {
        assertRefused("status", p -> p.filter(), "status", "LOST");
        assertRefused("createdFrom", p -> p.filter(), "createdFrom", "yesterday");
        assertRefused("createdTo", p -> p.filter(), "createdFrom", "2026-12-02T00:00:00Z",
                "createdTo", "2026-12-01T00:00:00Z");
        assertRefused("deliveryType", p -> p.filter(), "deliveryType", " ");
        assertRefused("size", p -> p.integer("size", 50, 1, 200), "size", "201");
        assertRefused("size", p -> p.integer("size", 50, 1, 200), "size", "ten");
        assertRefused("spread", p -> p.duration("spread", Duration.ZERO, Duration.ofHours(24)), "spread", "PT25H");
        assertRefused("size", p -> p.single("size"), "size", "1", "size", "2");
    }

    @Test
    void unknownParametersAndOversizedValuesAreRefusedUpFront() {
        BadParameter unknown = assertThrows(BadParameter.class, () -> parameters("statu", "FAILED"));
        assertEquals("statu", unknown.parameter());

        BadParameter oversized = assertThrows(BadParameter.class, () -> parameters("errorContains", "x".repeat(513)));
        assertEquals("errorContains", oversized.parameter());
        assertTrue(oversized.getMessage().contains("at most 512"), oversized.getMessage());
        assertEquals("errorContains", assertThrows(BadParameter.class,
                () -> parameters("errorContains", "x".repeat(256)).filter()).parameter());
    }

    @Test
    void anIdMustBeACanonicalUuid() {
        assertEquals("id", assertThrows(BadParameter.class, () -> Parameters.id("1-1-1-1-1")).parameter());
        assertEquals("id", assertThrows(BadParameter.class, () -> Parameters.id("not-a-uuid")).parameter());
        assertEquals("0190c6f4-5d3a-7b2e-9c1d-2f4e6a8b0c1d",
                Parameters.id("0190c6f4-5d3a-7b2e-9c1d-2f4e6a8b0c1d").toString());
    }

    @Test
    void anAdminArgumentErrorNamesTheParameterItsMessageStartsWith() {
        assertEquals("maximum", Parameters.bad(new IllegalArgumentException("maximum must be 1 to 100000"), null)
                .parameter());
        assertEquals("after", Parameters.bad(new IllegalArgumentException("Not a page token"), "after").parameter());
    }

    private static void assertRefused(String parameter, Consumer<Parameters> read, String... query) {
        BadParameter refused = assertThrows(BadParameter.class, () -> read.accept(parameters(query)));
        assertEquals(parameter, refused.parameter(), refused.getMessage());
        assertTrue(refused.getMessage().startsWith(parameter), refused.getMessage());
    }

    private static Parameters parameters(String... pairs) {
        MultivaluedMap<String, String> query = new MultivaluedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            query.add(pairs[i], pairs[i + 1]);
        }
        return new Parameters(query, KNOWN);
    }
}
