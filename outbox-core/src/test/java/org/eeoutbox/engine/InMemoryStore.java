package org.eeoutbox.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.spi.LeasedEntry;
import org.eeoutbox.spi.OutboxStats;
import org.eeoutbox.spi.OutboxStore;

/**
 * A fake store for the engine's pure logic: no locks, no transactions; claims and writes are
 * synchronized, for lease-mode batches completed on another thread. What a database does is
 * proven by the JDBC store's contract suite against real servers.
 */
final class InMemoryStore implements OutboxStore {

    final Map<UUID, OutboxEntry> rows = new LinkedHashMap<>();
    /** The lease token of each entry ever leased. */
    final Map<UUID, Long> tokens = new HashMap<>();
    /** The entries under a lease that has not expired; {@link #expireLeases} ends them all. */
    final Set<UUID> leased = new HashSet<>();
    /** Where each claim and lease started its scan, in order; empty: from the oldest. */
    final List<Optional<Instant>> claimedFrom = new ArrayList<>();
    /** The entries of each {@link #update} call, in order. */
    final List<List<OutboxEntry>> updates = new ArrayList<>();
    /** Runs before each {@link #update} writes; it may throw, and then nothing is written. */
    volatile Consumer<List<OutboxEntry>> beforeUpdate = entries -> { };

    @Override
    public UUID insert(OutboxEntry entry) {
        OutboxEntry inserted = entry.orderingKey() == null ? entry : entry.withOrderingSeq(
                1 + rows.values().stream().filter(e -> entry.orderingKey().equals(e.orderingKey())).count());
        rows.put(entry.id(), inserted);
        return entry.id();
    }

    @Override
    public List<OutboxEntry> claim(Set<String> deliveryTypes, Instant now, int limit) {
        return claim(deliveryTypes, null, now, limit);
    }

    /**
     * Claims due entries, none due before {@code dueFrom} (recorded in {@link #claimedFrom}), of
     * an ordering key only its head (the BLOCK policy).
     */
    @Override
    public synchronized List<OutboxEntry> claim(Set<String> deliveryTypes, Instant dueFrom, Instant now, int limit) {
        claimedFrom.add(Optional.ofNullable(dueFrom));
        return rows.values().stream()
                .filter(e -> e.status() == OutboxStatus.PENDING && !e.nextAttemptAt().isAfter(now)
                        && (dueFrom == null || !e.nextAttemptAt().isBefore(dueFrom))
                        && deliveryTypes.contains(e.deliveryType()) && !leased.contains(e.id()) && isHead(e))
                .sorted(Comparator.comparing(OutboxEntry::nextAttemptAt))
                .limit(limit)
                .toList();
    }

    private boolean isHead(OutboxEntry entry) {
        return entry.orderingKey() == null || rows.values().stream().noneMatch(earlier ->
                entry.orderingKey().equals(earlier.orderingKey()) && earlier.orderingSeq() < entry.orderingSeq()
                        && (earlier.status() == OutboxStatus.PENDING || earlier.status() == OutboxStatus.FAILED));
    }

    /** Claims without expiry: a lease lasts until {@link #completeLeased} or {@link #expireLeases}. */
    @Override
    public List<LeasedEntry> lease(Set<String> deliveryTypes, Instant now, int limit, String owner, Duration length) {
        return lease(deliveryTypes, null, now, limit, owner, length);
    }

    @Override
    public synchronized List<LeasedEntry> lease(Set<String> deliveryTypes, Instant dueFrom, Instant now, int limit,
                                                String owner, Duration length) {
        List<LeasedEntry> claimed = new ArrayList<>();
        for (OutboxEntry entry : claim(deliveryTypes, dueFrom, now, Integer.MAX_VALUE)) {
            if (claimed.size() < limit && leased.add(entry.id())) {
                claimed.add(new LeasedEntry(entry, tokens.merge(entry.id(), 1L, Long::sum)));
                rows.put(entry.id(), withAttempts(entry, entry.attempts() + 1));
            }
        }
        return claimed;
    }

    @Override
    public synchronized Set<UUID> completeLeased(List<LeasedEntry> entries) {
        Set<UUID> lost = new HashSet<>();
        for (LeasedEntry lease : entries) {
            UUID id = lease.entry().id();
            if (tokens.get(id) == lease.token()) {
                rows.put(id, lease.entry());
                leased.remove(id);
            } else {
                lost.add(id);
            }
        }
        return lost;
    }

    /** Lets every lease expire, as the database's clock would. */
    void expireLeases() {
        leased.clear();
    }

    private static OutboxEntry withAttempts(OutboxEntry e, int attempts) {
        return new OutboxEntry(e.id(), e.messageType(), e.payload(), e.deliveryType(), e.deliveryMetadata(),
                e.deduplicationKey(), e.orderingKey(), e.orderingSeq(), e.status(), attempts, e.nextAttemptAt(), e.createdAt(), e.updatedAt(),
                e.lastError(), e.deliveredAt(), e.lastAttemptAt(), e.traceContext());
    }

    @Override
    public synchronized void update(List<OutboxEntry> entries) {
        beforeUpdate.accept(entries);
        updates.add(List.copyOf(entries));
        entries.forEach(entry -> rows.put(entry.id(), entry));
    }

    @Override
    public int purgeDelivered(Instant deliveredBefore, Instant keyedDeliveredBefore, Set<String> exceptTypes,
                              int limit) {
        return purge(entry -> entry.status() == OutboxStatus.DELIVERED && !exceptTypes.contains(entry.deliveryType())
                && entry.deliveredAt().isBefore(deliveredBefore), limit);
    }

    @Override
    public int purgeDeliveredOfType(String deliveryType, Instant deliveredBefore, Instant keyedDeliveredBefore,
                                    int limit) {
        return purge(entry -> entry.status() == OutboxStatus.DELIVERED && entry.deliveryType().equals(deliveryType)
                && entry.deliveredAt().isBefore(deliveredBefore), limit);
    }

    @Override
    public int purgeDiscarded(Instant discardedBefore, int limit) {
        return purge(entry -> entry.status() == OutboxStatus.DISCARDED && entry.updatedAt().isBefore(discardedBefore),
                limit);
    }

    private int purge(Predicate<OutboxEntry> doomed, int limit) {
        List<UUID> ids = rows.values().stream().filter(doomed).limit(limit).map(OutboxEntry::id).toList();
        ids.forEach(rows::remove);
        return ids.size();
    }

    @Override
    public Optional<OutboxEntry> find(UUID id) {
        return Optional.ofNullable(rows.get(id));
    }

    @Override
    public OutboxStats stats(Instant now) {
        return new OutboxStats(rows.size(), 0, Duration.ZERO, 0);
    }
}
