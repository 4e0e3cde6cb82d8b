package org.eeoutbox.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The per-key order check must catch what {@link OrderingFaultsIT} asserts never happens. */
class KeyOrderCheckTest {

    @Test
    void increasingFirstArrivalsWithGapsAndRepeatsOfTheHeadPass() {
        KeyOrderCheck check = new KeyOrderCheck();
        check.record("a", 1);
        check.record("b", 1);
        check.record("a", 3); // a gap: a rolled-back publish
        check.record("a", 3); // the head again: the crash window
        check.record("b", 2);
        assertEquals(0, check.violationCount(), check.violations()::toString);
        assertEquals(1, check.repeatsOfHead());
        assertEquals(Map.of("a", List.of(1L, 3L), "b", List.of(1L, 2L)), check.firstArrivals());
    }

    @Test
    void aFirstArrivalAfterAHigherSequenceIsAViolation() {
        KeyOrderCheck check = new KeyOrderCheck();
        check.record("a", 2);
        check.record("a", 1);
        assertEquals(1, check.violationCount());
        assertEquals(List.of("a: 1 arrived first after 2"), check.violations());
        assertEquals(Map.of("a", List.of(2L)), check.firstArrivals());
    }

    @Test
    void aRepeatOfAnOlderSequenceAfterANewerOneIsAViolation() {
        KeyOrderCheck check = new KeyOrderCheck();
        check.record("a", 1);
        check.record("a", 2);
        check.record("a", 1);
        assertEquals(List.of("a: 1 arrived again after 2"), check.violations());
    }
}
