package org.eeoutbox.spi;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.eeoutbox.OutboxEntry;

/**
 * Where outbox entries live. Every method runs in the transaction current on the calling thread
 * and never commits, rolls back or starts one itself.
 *
 * <p>Implementations are thread-safe. Methods throw {@link OutboxStoreException} when the
 * database fails and {@link IllegalStateException} when called outside a transaction.
 */
public interface OutboxStore {

    /**
     * Inserts a new entry, with its status ({@code PENDING}, or {@code DELIVERED} with its delivery
     * time for a transport complete at publish), unless its deduplication key is already held by
     * another entry. Never
     * aborts the current transaction on a duplicate key (conflict-free insert forms); two
     * concurrent transactions inserting the same key end with one row.
     *
     * <p>A key deduplicates one delivery: the entry holding it must have the same delivery type
     * and the same delivery metadata (compared as JSON values) as {@code entry}, otherwise the
     * insert fails loudly rather than dropping a delivery to another destination.
     *
     * <p>An entry with an {@linkplain OutboxEntry#orderingKey() ordering key} takes the key's next
     * sequence number, locking the key's sequence until the current transaction ends: two
     * transactions publishing to one key are serialized, so sequence order is commit order. A
     * duplicate deduplication key still uses up a number (a gap, which holds nothing up).
     *
     * @return the id of the entry now holding the key: {@code entry.id()} if it was inserted
     * @throws IllegalArgumentException if the key is held by an entry of another delivery type
     *                                  or with other delivery metadata; the message names the
     *                                  key, that entry's id and delivery type and the fix (a key
     *                                  per destination). Nothing is written and the transaction
     *                                  stays usable
     */
    UUID insert(OutboxEntry entry);

    /**
     * Claims up to {@code limit} {@code PENDING} entries due at {@code now} whose delivery type is
     * one of {@code deliveryTypes} and not paused ({@link OutboxAdminStore#pause}; the pause state
     * is read by each claim), oldest due first. The claim is a row lock held until the current
     * transaction ends; rows locked by other transactions, and entries under a lease that has not
     * expired ({@link #lease}), are skipped, never waited for.
     *
     * <p>An entry with an ordering key is claimed only while it is its key's head: no entry of the
     * same key with a smaller sequence is {@code PENDING} (claimed elsewhere or not), nor
     * {@code FAILED} under {@link HeadFailurePolicy#BLOCK}. So at most one entry per key is in
     * flight, and a claim never returns two entries of one key.
     *
     * @param limit the most entries to claim, {@code > 0}; a processor passes its batch size
     * @return the claimed entries, at most {@code limit}, ordered by due time then id
     * @throws IllegalArgumentException if {@code limit} is not positive
     */
    List<OutboxEntry> claim(Set<String> deliveryTypes, Instant now, int limit);

    /**
     * Claims like {@link #claim(Set, Instant, int)}, but may leave out the entries due before
     * {@code dueFrom}: a processor that knows none of them is claimable passes it so that the
     * store can start its scan there (on PostgreSQL, past the dead index entries that delivered
     * entries leave until VACUUM). Returning such entries too is correct; the default ignores
     * {@code dueFrom}.
     *
     * @param dueFrom where the scan may start, before {@code now}; {@code null}: from the oldest
     */
    default List<OutboxEntry> claim(Set<String> deliveryTypes, Instant dueFrom, Instant now, int limit) {
        return claim(deliveryTypes, now, limit);
    }

    /**
     * Writes back the new state of claimed entries, as few statements as the database allows,
     * with the time of each attempt ({@link OutboxEntry#lastAttemptAt()}). Each failed attempt
     * (an entry {@link OutboxEntry#attemptedAtUpdate() attempted} that is not {@code DELIVERED})
     * is also recorded in the entry's failure history; delivered and postponed entries add
     * nothing to it.
     *
     * <p>May be called more than once for an entry in one transaction, and the last call wins: the
     * processor writes a lock-mode batch as {@code DELIVERED} while its deliveries run, then writes
     * again each entry that was not delivered, which must then keep no delivery time.
     *
     * @param entries entries claimed in the current transaction, after their transition
     */
    void update(List<OutboxEntry> entries);

    /**
     * Claims like {@link #claim}, but with a lease instead of a row lock held by the transaction
     * (lease mode): the entries are delivered after the current transaction commits, with none
     * open. Skips, besides the rows other transactions hold, the entries under a lease that has not
     * expired; {@link #claim} skips those too. Each claimed row gets {@code owner}, a fencing token
     * one higher than its last, an expiry {@code length} after the database's current time (never
     * the JVM's) and one more attempt, counted now so that an entry whose delivery kills the JVM
     * still reaches its retry budget.
     *
     * @param limit  the most entries to lease, {@code > 0}
     * @param owner  who holds the leases, for operators: an instance id, at most 255 characters
     * @param length how long the leases last, {@code > 0}
     * @return the leased entries with their tokens, at most {@code limit}, ordered by due time then
     *         id; each entry's attempts as they were before this claim
     */
    List<LeasedEntry> lease(Set<String> deliveryTypes, Instant now, int limit, String owner, Duration length);

    /**
     * Leases like {@link #lease(Set, Instant, int, String, Duration)}, but may leave out the
     * entries due before {@code dueFrom}, as {@link #claim(Set, Instant, Instant, int)} does; the
     * default ignores {@code dueFrom}.
     */
    default List<LeasedEntry> lease(Set<String> deliveryTypes, Instant dueFrom, Instant now, int limit, String owner,
                                    Duration length) {
        return lease(deliveryTypes, now, limit, owner, length);
    }

    /**
     * Writes back, as {@link #update} does, the new state of entries claimed by {@link #lease},
     * and releases their leases; but only for the entries whose token is still the row's (fenced):
     * an entry leased again since (its lease expired) keeps the newer holder's state. The attempt
     * was counted at the claim: an attempted entry's {@code attempts} is written as it is, and a
     * postponed one gives that attempt back.
     *
     * @param entries leased entries after their transition, each with the token of its lease
     * @return the ids of the entries whose lease was lost, and which were therefore not written
     */
    Set<UUID> completeLeased(List<LeasedEntry> entries);

    /**
     * Deletes up to {@code limit} {@code DELIVERED} entries delivered before {@code deliveredBefore}
     * (or, for entries with a deduplication key, before {@code keyedDeliveredBefore}), without
     * blocking claims.
     *
     * @return the number deleted, always in {@code [0, limit]}
     */
    default int purgeDelivered(Instant deliveredBefore, Instant keyedDeliveredBefore, int limit) {
        return purgeDelivered(deliveredBefore, keyedDeliveredBefore, Set.of(), limit);
    }

    /**
     * As {@link #purgeDelivered(Instant, Instant, int)}, leaving out the entries whose delivery
     * type is one of {@code exceptTypes} (types with a retention of their own, purged by
     * {@link #purgeDeliveredOfType}).
     *
     * @return the number deleted, always in {@code [0, limit]}
     */
    int purgeDelivered(Instant deliveredBefore, Instant keyedDeliveredBefore, Set<String> exceptTypes, int limit);

    /**
     * Deletes up to {@code limit} {@code DELIVERED} entries of {@code deliveryType} delivered before
     * {@code deliveredBefore} (or, for entries with a deduplication key, before the later of it
     * and {@code keyedDeliveredBefore}), without blocking claims.
     *
     * @return the number deleted, always in {@code [0, limit]}
     */
    int purgeDeliveredOfType(String deliveryType, Instant deliveredBefore, Instant keyedDeliveredBefore, int limit);

    /**
     * Deletes up to {@code limit} {@code DISCARDED} entries discarded before {@code discardedBefore},
     * with their failure history, skipping entries other transactions hold.
     *
     * @return the number deleted, always in {@code [0, limit]}
     */
    int purgeDiscarded(Instant discardedBefore, int limit);

    /**
     * Returns what a {@code FAILED} head does to its ordering key in this store's claims; the
     * processor logs it. {@link HeadFailurePolicy#BLOCK} unless the store says otherwise.
     */
    default HeadFailurePolicy headFailurePolicy() {
        return HeadFailurePolicy.BLOCK;
    }

    /** Returns the entry with the given id, if any. */
    Optional<OutboxEntry> find(UUID id);

    /**
     * Returns counts for gauges, read without scanning delivered entries.
     *
     * @param now the time against which the age of the oldest pending entry is measured
     */
    OutboxStats stats(Instant now);
}
