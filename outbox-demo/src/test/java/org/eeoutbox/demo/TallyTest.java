package org.eeoutbox.demo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TallyTest {

    private static final Instant CREATED = Instant.parse("2026-01-01T10:00:00Z");

    private static String order(String id) {
        return order(id, CREATED);
    }

    private static String order(String id, Instant createdAt) {
        return "{\"amount\":12.5,\"createdAt\":\"" + createdAt + "\",\"customer\":\"c\",\"id\":\"" + id + "\"}";
    }

    @Test
    void countsOrdersDuplicatesAndMalformedArrivals() {
        Tally tally = new Tally();
        tally.record("e1", order("o1"), CREATED.plusMillis(10));
        tally.record("e1", order("o1"), CREATED.plusMillis(900)); // redelivery: same x-outbox-id
        tally.record("e2", order("o2"), CREATED.plusMillis(20));
        tally.record(null, order("o3"), CREATED.plusMillis(5));
        tally.record("e4", "not json", CREATED.plusMillis(5));

        assertEquals(5, tally.arrivals());
        assertEquals(1, tally.duplicates());
        assertEquals(2, tally.malformed());
        assertEquals(2, tally.orders());
        assertEquals(1, tally.deliveredOf(List.of("o1", "o3")));
    }

    @Test
    void latencyPercentilesByNearestRankOfFirstArrivals() {
        Tally tally = new Tally();
        for (int i = 1; i <= 100; i++) {
            tally.record("e" + i, order("o" + i), CREATED.plusMillis(i));
        }
        tally.record("e1", order("o1"), CREATED.plusSeconds(60)); // a duplicate does not count
        assertArrayEquals(new double[] {50, 95, 99, 100}, tally.latencyMillis(50, 95, 99, 100));
        assertEquals(0, new Tally().latencyMillis(50).length);
    }

    @Test
    void latencyLeavesOutOrdersCreatedBeforeTheMeasurementStarted() {
        Tally tally = new Tally();
        Instant warm = CREATED.plusSeconds(10);
        tally.record("e1", order("o1"), CREATED.plusMillis(900)); // warm-up: slow, not counted
        tally.record("e2", order("o2", warm), warm.plusMillis(4));
        tally.record("e3", order("o3", warm.plusMillis(1)), warm.plusMillis(9));
        assertArrayEquals(new double[] {4, 8}, tally.latencyMillis(warm, 50, 100));
        assertArrayEquals(new double[] {900}, tally.latencyMillis(100));
        assertEquals(0, tally.latencyMillis(warm.plusSeconds(1), 50).length);
    }
}
