package org.eeoutbox.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.spi.OutboxStats;
import org.eeoutbox.spi.OutboxStore;

/**
 * A fake store for the engine's pure logic: no locks, no transactions, one thread. What a
 * database does is proven by the JDBC store's contract suite against real servers.
 */
final class InMemoryStore implements OutboxStore {

    final Map<UUID, OutboxEntry> rows = new LinkedHashMap<>();

    @Override
    public UUID insert(OutboxEntry entry) {
        OutboxEntry inserted = entry.orderingKey() == null ? entry : entry.withOrderingSeq(
                1 + rows.values().stream().filter(e -> entry.orderingKey().equals(e.orderingKey())).count());
        rows.put(entry.id(), inserted);
        return entry.id();
    }

    /** Claims due entries, of an ordering key only its head (the BLOCK policy). */
    @Override
    public List<OutboxEntry> claim(Set<String> deliveryTypes, Instant now, int limit) {
        return rows.values().stream()
                .filter(e -> e.status() == OutboxStatus.PENDING && !e.nextAttemptAt().isAfter(now)
                        && deliveryTypes.contains(e.deliveryType()) && isHead(e))
                .sorted(Comparator.comparing(OutboxEntry::nextAttemptAt))
                .limit(limit)
                .toList();
    }

    private boolean isHead(OutboxEntry entry) {
        return entry.orderingKey() == null || rows.values().stream().noneMatch(earlier ->
                entry.orderingKey().equals(earlier.orderingKey()) && earlier.orderingSeq() < entry.orderingSeq()
                        && (earlier.status() == OutboxStatus.PENDING || earlier.status() == OutboxStatus.FAILED));
    }

    @Override
    public void update(List<OutboxEntry> entries) {
        entries.forEach(entry -> rows.put(entry.id(), entry));
    }

    @Override
    public int purgeDelivered(Instant deliveredBefore, Instant keyedDeliveredBefore, int limit) {
        return purge(entry -> entry.status() == OutboxStatus.DELIVERED && entry.deliveredAt().isBefore(deliveredBefore),
                limit);
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
