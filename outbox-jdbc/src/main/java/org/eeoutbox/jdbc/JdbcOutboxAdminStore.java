package org.eeoutbox.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.admin.EntryFilter;
import org.eeoutbox.admin.EntryView;
import org.eeoutbox.admin.FailedAttempt;
import org.eeoutbox.admin.BlockedKey;
import org.eeoutbox.admin.Pause;
import org.eeoutbox.spi.HeadFailurePolicy;
import org.eeoutbox.spi.OutboxAdminStore;
import org.eeoutbox.spi.OutboxStoreException;

/**
 * The {@link OutboxAdminStore} on plain JDBC, for PostgreSQL and MySQL, beside the
 * {@link JdbcOutboxStore} on the same table.
 *
 * <p>No statement waits for a row lock: locks are taken with {@code FOR UPDATE SKIP LOCKED}
 * (PostgreSQL and MySQL 8 alike), which returns what it could lock instead of raising an error
 * as {@code NOWAIT} does (an error aborts a PostgreSQL transaction); a plain read, which never
 * waits on either database, then tells a locked entry from a missing one. An entry under a lease
 * that has not expired (lease mode: being delivered with no transaction open) counts as held, and
 * is skipped the same way. Listing and counting are plain reads too.
 *
 * <p>Every method runs on the connection of the current transaction and neither commits nor
 * closes it. Thread-safe. Failures of the database surface as {@link OutboxStoreException} naming
 * the operation; a call outside a transaction as {@link IllegalStateException}.
 */
public final class JdbcOutboxAdminStore implements OutboxAdminStore {

    private static final String REPLAY_SQL = """
            UPDATE outbox
            SET status = 'PENDING', attempts = 0, next_attempt_at = ?, updated_at = ?
            WHERE id = ? AND status IN ('FAILED', 'DISCARDED')""";

    private static final String FAILURES_SQL = """
            SELECT attempt, %s, outcome, error
            FROM outbox_attempt
            WHERE entry_id = ?
            ORDER BY attempted_at, attempt""";

    private static final String COUNTS_SQL = """
            SELECT status, delivery_type, COUNT(*)
            FROM outbox
            WHERE status IN ('PENDING', 'FAILED', 'DISCARDED')
            GROUP BY status, delivery_type""";

    private final ConnectionProvider connections;
    private final SqlDialect dialect;
    private final HeadFailurePolicy headFailurePolicy;

    /** Creates the operations store of an outbox whose failed heads block their keys. */
    public JdbcOutboxAdminStore(ConnectionProvider connections, SqlDialect dialect) {
        this(connections, dialect, HeadFailurePolicy.BLOCK);
    }

    /** Creates the operations store of an outbox whose failed heads do what {@code headFailurePolicy} says. */
    public JdbcOutboxAdminStore(ConnectionProvider connections, SqlDialect dialect,
                                HeadFailurePolicy headFailurePolicy) {
        this.connections = Objects.requireNonNull(connections, "connections");
        this.dialect = Objects.requireNonNull(dialect, "dialect");
        this.headFailurePolicy = Objects.requireNonNull(headFailurePolicy, "headFailurePolicy");
    }

    @Override
    public List<EntryView> list(EntryFilter filter, UUID before, int limit, boolean includePayload) {
        // Walks the primary key downwards from before: newest first, each page where the last ended.
        return query("list outbox entries", "SELECT " + viewColumns(includePayload), filter, "id < ?", before,
                "ORDER BY id DESC LIMIT ?", limit, this::readView);
    }

    @Override
    public Optional<EntryView> find(UUID id) {
        String sql = "SELECT " + viewColumns(true) + " FROM outbox WHERE id = ?";
        return run("find outbox entry " + id, connection -> {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                dialect.setId(statement, 1, id);
                try (ResultSet resultSet = statement.executeQuery()) {
                    return resultSet.next() ? Optional.of(readView(resultSet)) : Optional.empty();
                }
            }
        });
    }

    @Override
    public List<FailedAttempt> failures(UUID id) {
        String sql = FAILURES_SQL.formatted(dialect.epochMicros("attempted_at"));
        return run("read the failures of outbox entry " + id, connection -> {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                dialect.setId(statement, 1, id);
                try (ResultSet resultSet = statement.executeQuery()) {
                    List<FailedAttempt> failures = new ArrayList<>();
                    while (resultSet.next()) {
                        failures.add(new FailedAttempt(resultSet.getInt(1), SqlDialect.getInstant(resultSet, 2),
                                "FAILED".equals(resultSet.getString(3)), resultSet.getString(4)));
                    }
                    return failures;
                }
            }
        });
    }

    @Override
    public Optional<OutboxStatus> lock(UUID id) {
        // An entry under an unexpired lease is being delivered with no transaction open: held too.
        return readStatus("lock outbox entry " + id, "SELECT status FROM outbox WHERE id = ? AND "
                + dialect.notLeased() + " FOR UPDATE SKIP LOCKED", id);
    }

    @Override
    public Optional<OutboxStatus> status(UUID id) {
        return readStatus("read the status of outbox entry " + id, "SELECT status FROM outbox WHERE id = ?", id);
    }

    private Optional<OutboxStatus> readStatus(String operation, String sql, UUID id) {
        return run(operation, connection -> {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                dialect.setId(statement, 1, id);
                try (ResultSet resultSet = statement.executeQuery()) {
                    return resultSet.next() ? Optional.of(OutboxStatus.valueOf(resultSet.getString(1)))
                            : Optional.empty();
                }
            }
        });
    }

    @Override
    public List<UUID> lockMatching(EntryFilter filter, UUID after, int limit) {
        // Walks the primary key upwards from after: each batch starts where the last one ended.
        return query("lock matching outbox entries", "SELECT id", filter, "id > ?", after,
                "AND " + dialect.notLeased() + " ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED", limit,
                resultSet -> dialect.getId(resultSet, 1));
    }

    /**
     * Runs {@code select FROM outbox WHERE <filter> [AND <keyCondition>] <tail>}: the key
     * condition only when {@code key} is given, {@code limit} bound last.
     */
    private <T> List<T> query(String operation, String select, EntryFilter filter, String keyCondition, UUID key,
                              String tail, int limit, RowMapper<T> mapper) {
        FilterSql where = FilterSql.of(dialect, filter);
        String sql = select + " FROM outbox WHERE " + where.condition() + (key == null ? "" : " AND " + keyCondition)
                + " " + tail;
        return run(operation, connection -> {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                int next = where.bind(statement, 1);
                if (key != null) {
                    dialect.setId(statement, next++, key);
                }
                statement.setInt(next, limit);
                try (ResultSet resultSet = statement.executeQuery()) {
                    List<T> rows = new ArrayList<>();
                    while (resultSet.next()) {
                        rows.add(mapper.map(resultSet));
                    }
                    return rows;
                }
            }
        });
    }

    @Override
    public long count(EntryFilter filter) {
        FilterSql where = FilterSql.of(dialect, filter);
        String sql = "SELECT COUNT(*) FROM outbox WHERE " + where.condition();
        return run("count outbox entries", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                where.bind(statement, 1);
                return singleLong(statement);
            }
        });
    }

    @Override
    public int replay(Map<UUID, Instant> dueTimes, Instant now) {
        if (dueTimes.isEmpty()) {
            return 0;
        }
        return run("replay " + dueTimes.size() + " outbox entries", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(REPLAY_SQL)) {
                for (Map.Entry<UUID, Instant> due : dueTimes.entrySet()) {
                    dialect.setInstant(statement, 1, due.getValue());
                    dialect.setInstant(statement, 2, now);
                    dialect.setId(statement, 3, due.getKey());
                    statement.addBatch();
                }
                return StoreCalls.executeBatch(statement);
            }
        });
    }

    @Override
    public int discard(Collection<UUID> ids, Instant now) {
        if (ids.isEmpty()) {
            return 0;
        }
        String sql = "UPDATE outbox SET status = 'DISCARDED', updated_at = ? WHERE " + dialect.in("id", ids.size())
                + " AND status IN ('PENDING', 'FAILED')";
        return run("discard " + ids.size() + " outbox entries", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                dialect.setInstant(statement, 1, now);
                dialect.bindIds(statement, 2, ids);
                return statement.executeUpdate();
            }
        });
    }

    @Override
    public Map<OutboxStatus, Map<String, Long>> countsPerStatusAndType() {
        return run("count outbox entries per status", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(COUNTS_SQL);
                 ResultSet resultSet = statement.executeQuery()) {
                Map<OutboxStatus, Map<String, Long>> counts = new EnumMap<>(OutboxStatus.class);
                while (resultSet.next()) {
                    counts.computeIfAbsent(OutboxStatus.valueOf(resultSet.getString(1)), s -> new LinkedHashMap<>())
                            .put(resultSet.getString(2), resultSet.getLong(3));
                }
                return counts;
            }
        });
    }

    @Override
    public long countPendingDueBefore(Instant dueBefore) {
        return run("count overdue outbox entries", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(
                    "SELECT COUNT(*) FROM outbox WHERE status = 'PENDING' AND next_attempt_at < ?")) {
                dialect.setInstant(statement, 1, dueBefore);
                return singleLong(statement);
            }
        });
    }

    @Override
    public boolean pause(Pause pause) {
        return run("pause delivery type " + pause.deliveryType(), connection -> {
            try (PreparedStatement statement = connection.prepareStatement(dialect.pauseSql())) {
                statement.setString(1, pause.deliveryType());
                dialect.setInstant(statement, 2, pause.pausedAt());
                statement.setString(3, pause.pausedBy());
                return statement.executeUpdate() == 1;
            }
        });
    }

    @Override
    public boolean resume(String deliveryType) {
        return run("resume delivery type " + deliveryType, connection -> {
            try (PreparedStatement statement = connection.prepareStatement(
                    "DELETE FROM outbox_pause WHERE delivery_type = ?")) {
                statement.setString(1, deliveryType);
                return statement.executeUpdate() == 1;
            }
        });
    }

    @Override
    public List<Pause> paused() {
        String sql = "SELECT delivery_type, " + dialect.epochMicros("paused_at")
                + ", paused_by FROM outbox_pause ORDER BY paused_at, delivery_type";
        return run("read the paused delivery types", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(sql);
                 ResultSet resultSet = statement.executeQuery()) {
                List<Pause> paused = new ArrayList<>();
                while (resultSet.next()) {
                    paused.add(new Pause(resultSet.getString(1), SqlDialect.getInstant(resultSet, 2),
                            resultSet.getString(3)));
                }
                return paused;
            }
        });
    }

    @Override
    public List<BlockedKey> blockedKeys(int limit) {
        if (headFailurePolicy == HeadFailurePolicy.SKIP) {
            return List.of();
        }
        // The failed entries that are their key's head: failed entries are few, and each head
        // check is one probe of outbox_ordering_idx.
        String sql = """
                SELECT ordering_key, id, %s, last_error
                FROM outbox
                WHERE status = 'FAILED' AND ordering_key IS NOT NULL AND %s
                ORDER BY updated_at, id
                LIMIT ?""".formatted(dialect.epochMicros("updated_at"), dialect.isKeyHead(headFailurePolicy));
        return run("read the blocked ordering keys", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                statement.setInt(1, limit);
                try (ResultSet resultSet = statement.executeQuery()) {
                    List<BlockedKey> keys = new ArrayList<>();
                    while (resultSet.next()) {
                        keys.add(new BlockedKey(resultSet.getString(1), dialect.getId(resultSet, 2),
                                SqlDialect.getInstant(resultSet, 3), resultSet.getString(4)));
                    }
                    return keys;
                }
            }
        });
    }

    /** The columns {@link #readView} maps; the payload only when asked for, {@code NULL} otherwise. */
    private String viewColumns(boolean includePayload) {
        return "id, message_type, delivery_type, delivery_metadata, deduplication_key, status, attempts, "
                + dialect.epochMicros("next_attempt_at") + ", " + dialect.epochMicros("created_at") + ", "
                + dialect.epochMicros("updated_at") + ", " + dialect.epochMicros("last_attempt_at")
                + ", last_error, " + dialect.epochMicros("delivered_at") + ", " + (includePayload ? "payload" : "NULL");
    }

    private EntryView readView(ResultSet resultSet) throws SQLException {
        return new EntryView(dialect.getId(resultSet, 1), resultSet.getString(2), resultSet.getString(3),
                resultSet.getString(4), resultSet.getString(5), OutboxStatus.valueOf(resultSet.getString(6)),
                resultSet.getInt(7), SqlDialect.getInstant(resultSet, 8), SqlDialect.getInstant(resultSet, 9),
                SqlDialect.getInstant(resultSet, 10), SqlDialect.getInstant(resultSet, 11), resultSet.getString(12),
                SqlDialect.getInstant(resultSet, 13), resultSet.getString(14));
    }

    private static long singleLong(PreparedStatement statement) throws SQLException {
        try (ResultSet resultSet = statement.executeQuery()) {
            resultSet.next();
            return resultSet.getLong(1);
        }
    }

    private <T> T run(String operation, ConnectionProvider.SqlFunction<T> work) {
        return StoreCalls.run(connections, operation, work);
    }
}
