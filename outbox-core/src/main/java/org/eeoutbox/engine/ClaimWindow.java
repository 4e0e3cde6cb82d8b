package org.eeoutbox.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.eeoutbox.OutboxEntry;

/**
 * Where the claims of one claim mode start their scan of due entries: from the oldest, or from a
 * due time the earlier claims showed to be safe to start from, one interval early.
 *
 * <p>Why: on PostgreSQL every delivered entry leaves a dead entry at the front of the claim's
 * index until VACUUM removes it, and a claim that scans from the oldest due time walks over all
 * of them first (a million entries delivered since the last VACUUM halve the drain rate,
 * BENCHMARKS.md). A claim that starts at a due time skips them.
 *
 * <p>After a claim, an entry due before the first entry it returned (or before the claim's time,
 * if it returned none) that was not returned was skipped for a reason that passes: another claim
 * held it, its lease had not expired, its delivery type was paused, its key's head was in flight,
 * or the transaction that wrote it had not committed. So the next claims start one interval before
 * that point, which covers transactions that commit within an interval of writing their entries
 * and clocks that differ by less; once per interval a claim scans from the oldest, which finds
 * what the other reasons released, at most about an interval late. An ordering key's release
 * ({@link #rescanFrom}) moves the start back at once to an interval before the released entry's
 * creation, so a key's next entry waits for no interval: its insert took the key after the
 * released entry's did, so it is due no earlier than the released entry's creation, less the time
 * its publish spent between reading the clock and taking the key (waiting for another transaction
 * that held the key, say) and the clocks' difference. The interval covers those up to its length;
 * beyond it, the next scan from the oldest finds the entry. A zero interval makes every claim scan
 * from the oldest.
 *
 * <p>Thread-safe: the workers of a processor share one window per claim mode.
 */
final class ClaimWindow {

    /** Where one claim starts: {@code dueFrom}, or the oldest entry when {@code null}. */
    record Scan(Instant dueFrom, long generation) {
    }

    private final Duration interval;
    private final long intervalNanos;
    private Instant dueFrom;
    private long generation;
    private long lastFullScan;

    /** @param interval how early claims start and how often one scans from the oldest; {@code >= 0} */
    ClaimWindow(Duration interval) {
        this.interval = Objects.requireNonNull(interval, "interval");
        this.intervalNanos = interval.toNanos();
    }

    /**
     * Runs a claim in this window and records what it found.
     *
     * @param now   the time the claim is given
     * @param claim the claim, given where it may start ({@code null}: from the oldest)
     * @param entry the entry of each claimed element
     * @return what {@code claim} returned, oldest due first
     */
    <T> List<T> claim(Instant now, Function<Instant, List<T>> claim, Function<T, OutboxEntry> entry) {
        Scan scan = next(System.nanoTime());
        List<T> claimed = claim.apply(scan.dueFrom());
        claimed(scan, now, claimed.isEmpty() ? null : entry.apply(claimed.get(0)).nextAttemptAt());
        return claimed;
    }

    /**
     * Returns where the next claim starts, at {@code nanoTime} ({@link System#nanoTime()}): from the
     * oldest when the window is closed (at first, after {@link #rescan()}, with a zero interval) or
     * when the last scan from the oldest began an interval ago or more.
     */
    synchronized Scan next(long nanoTime) {
        if (dueFrom == null || nanoTime - lastFullScan >= intervalNanos) {
            lastFullScan = nanoTime;
            return new Scan(null, generation);
        }
        return new Scan(dueFrom, generation);
    }

    /**
     * Records what a claim started by {@code scan} found: the due time of its first entry, or
     * {@code null} if it claimed none, at {@code now} (the time the claim was given). Later claims
     * start an interval before that. A scan from the oldest sets where they start, earlier than
     * before if it found entries there (a resumed delivery type's backlog is then claimed at full
     * speed, not a batch per interval); a scan from a due time only moves it forward. A claim begun
     * before the last {@link #rescan()} moves nothing.
     */
    synchronized void claimed(Scan scan, Instant now, Instant firstDue) {
        if (intervalNanos == 0 || scan.generation() != generation) {
            return;
        }
        Instant candidate = (firstDue == null || firstDue.isAfter(now) ? now : firstDue).minus(interval);
        if (scan.dueFrom() == null || dueFrom == null || candidate.isAfter(dueFrom)) {
            dueFrom = candidate;
        }
    }

    /**
     * Makes the next claims start no later than an interval before {@code released}, the creation
     * of an entry that released its ordering key, and makes claims begun before now move nothing
     * (one of them may have found the start before the key's next entry became claimable).
     */
    synchronized void rescanFrom(Instant released) {
        generation++;
        Instant candidate = released.minus(interval);
        if (dueFrom != null && candidate.isBefore(dueFrom)) {
            dueFrom = candidate;
        }
    }
}
