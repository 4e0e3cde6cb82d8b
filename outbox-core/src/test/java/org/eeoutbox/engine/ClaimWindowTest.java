package org.eeoutbox.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Where claims start, on explicit times: the window's rules without a store. */
class ClaimWindowTest {

    private static final Instant NOW = Instant.parse("2026-12-06T08:00:00Z");
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final long SECOND = 1_000_000_000L;

    private final ClaimWindow window = new ClaimWindow(INTERVAL);

    @Test
    void theFirstClaimScansFromTheOldest() {
        assertNull(window.next(0).dueFrom());
    }

    @Test
    void laterClaimsStartAnIntervalBeforeTheFirstEntryFound() {
        window.claimed(window.next(0), NOW, NOW.minusSeconds(30));

        assertEquals(NOW.minusSeconds(31), window.next(SECOND / 2).dueFrom());
    }

    @Test
    void aClaimThatFoundNothingMovesTheStartToAnIntervalBeforeItsTime() {
        window.claimed(window.next(0), NOW, null);

        assertEquals(NOW.minus(INTERVAL), window.next(1).dueFrom());
    }

    @Test
    void aClaimFromADueTimeNeverMovesTheStartBack() {
        window.claimed(window.next(0), NOW, null);
        ClaimWindow.Scan scan = window.next(1);

        window.claimed(scan, NOW, NOW.minusSeconds(60));

        assertEquals(NOW.minus(INTERVAL), window.next(2).dueFrom());
    }

    @Test
    void oncePerIntervalAClaimScansFromTheOldestAndItsFindingsMoveTheStartBack() {
        window.claimed(window.next(0), NOW, null);
        window.claimed(window.next(SECOND - 1), NOW, null);

        ClaimWindow.Scan full = window.next(SECOND);
        assertNull(full.dueFrom());
        // A resumed delivery type's backlog, due a minute ago: the claims after start there.
        window.claimed(full, NOW.plusSeconds(1), NOW.minusSeconds(60));

        assertEquals(NOW.minusSeconds(61), window.next(SECOND + 1).dueFrom());
    }

    @Test
    void aKeysReleaseMovesTheStartBackToAnIntervalBeforeTheReleasedEntrysCreation() {
        window.claimed(window.next(0), NOW, null);

        window.rescanFrom(NOW.minusSeconds(30));

        assertEquals(NOW.minusSeconds(31), window.next(1).dueFrom());
    }

    @Test
    void aKeysReleaseNeverMovesTheStartForwardNorOpensAClosedWindow() {
        window.claimed(window.next(0), NOW, NOW.minusSeconds(60));

        window.rescanFrom(NOW);

        assertEquals(NOW.minusSeconds(61), window.next(1).dueFrom());
        ClaimWindow closed = new ClaimWindow(INTERVAL);
        closed.rescanFrom(NOW);
        assertNull(closed.next(0).dueFrom());
    }

    @Test
    void claimsBegunBeforeAKeysReleaseMoveNothing() {
        window.claimed(window.next(0), NOW, null);
        ClaimWindow.Scan before = window.next(1);

        window.rescanFrom(NOW.minusSeconds(30));
        window.claimed(before, NOW.plusSeconds(5), null);

        ClaimWindow.Scan after = window.next(2);
        assertEquals(NOW.minusSeconds(31), after.dueFrom());
        window.claimed(after, NOW.plusSeconds(5), NOW.plusSeconds(3));
        assertEquals(NOW.plusSeconds(2), window.next(3).dueFrom());
    }

    @Test
    void aZeroIntervalScansFromTheOldestEveryTime() {
        ClaimWindow always = new ClaimWindow(Duration.ZERO);
        always.claimed(always.next(0), NOW, NOW);

        assertNull(always.next(1).dueFrom());
    }
}
