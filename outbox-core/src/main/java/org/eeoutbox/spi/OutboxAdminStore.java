package org.eeoutbox.spi;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.admin.BlockedKey;
import org.eeoutbox.admin.EntryFilter;
import org.eeoutbox.admin.EntryView;
import org.eeoutbox.admin.FailedAttempt;
import org.eeoutbox.admin.Pause;

/**
 * The store operations behind {@link org.eeoutbox.admin.OutboxAdmin}: reading entries and their
 * failure history, the replay and discard transitions, the backlog counts and the pause state.
 * Every method runs in the transaction current on the calling thread and never commits, rolls
 * back or starts one itself; none waits for a row lock another transaction holds.
 *
 * <p>Implementations are thread-safe. Methods throw {@link OutboxStoreException} when the
 * database fails and {@link IllegalStateException} when called outside a transaction.
 */
public interface OutboxAdminStore {

    /**
     * Returns up to {@code limit} entries matching {@code filter}, newest first (by id, which is
     * time-ordered), of ids below {@code before} ({@code null}: from the newest).
     *
     * @param includePayload whether the views carry their payload ({@code null} otherwise)
     */
    List<EntryView> list(EntryFilter filter, UUID before, int limit, boolean includePayload);

    /** Returns the entry with its payload, if any. */
    Optional<EntryView> find(UUID id);

    /** Returns the entry's recorded failed attempts, oldest first; empty for an unknown id. */
    List<FailedAttempt> failures(UUID id);

    /**
     * Row-locks the entry until the current transaction ends, unless another transaction holds
     * it or it is under a lease that has not expired ({@link OutboxStore#lease}): that one is
     * skipped, not waited for.
     *
     * @return the entry's status, now locked; empty if there is no such entry or another
     *         transaction holds it (tell them apart with {@link #status})
     */
    Optional<OutboxStatus> lock(UUID id);

    /** Returns the entry's last committed status without locking or waiting; empty if there is none. */
    Optional<OutboxStatus> status(UUID id);

    /**
     * Row-locks up to {@code limit} entries matching {@code filter} with ids above {@code after}
     * ({@code null}: from the oldest), in id order, skipping entries other transactions hold and
     * entries under a lease that has not expired.
     *
     * @return their ids, ascending
     */
    List<UUID> lockMatching(EntryFilter filter, UUID after, int limit);

    /** Counts the entries matching {@code filter}. */
    long count(EntryFilter filter);

    /**
     * Replays entries locked in the current transaction: each one still {@code FAILED} or
     * {@code DISCARDED} becomes {@code PENDING}, due at its given time, with no attempts. Its
     * last error, last attempt time and failure history are kept.
     *
     * @param dueTimes the entries and when each is due
     * @return the number replayed
     */
    int replay(Map<UUID, Instant> dueTimes, Instant now);

    /**
     * Discards entries locked in the current transaction: each one still {@code PENDING} or
     * {@code FAILED} becomes {@code DISCARDED}.
     *
     * @return the number discarded
     */
    int discard(Collection<UUID> ids, Instant now);

    /**
     * Counts the entries per status, then per delivery type, for every status but
     * {@code DELIVERED} (the delivered history is not scanned).
     */
    Map<OutboxStatus, Map<String, Long>> countsPerStatusAndType();

    /** Counts the {@code PENDING} entries due before {@code dueBefore}. */
    long countPendingDueBefore(Instant dueBefore);

    /**
     * Pauses a delivery type for every instance, unless it is paused already.
     *
     * @return whether it was paused by this call
     */
    boolean pause(Pause pause);

    /**
     * Resumes a paused delivery type.
     *
     * @return whether it was paused
     */
    boolean resume(String deliveryType);

    /** Returns the paused delivery types, oldest pause first. */
    List<Pause> paused();

    /**
     * Returns up to {@code limit} ordering keys whose head is {@code FAILED} and holds them up
     * (under {@link HeadFailurePolicy#BLOCK}; none under {@code SKIP}), the longest blocked first.
     */
    List<BlockedKey> blockedKeys(int limit);
}
