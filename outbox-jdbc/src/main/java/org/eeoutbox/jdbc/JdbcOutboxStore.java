package org.eeoutbox.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.TraceContext;
import org.eeoutbox.spi.HeadFailurePolicy;
import org.eeoutbox.spi.LeasedEntry;
import org.eeoutbox.spi.OutboxStats;
import org.eeoutbox.spi.OutboxStore;
import org.eeoutbox.spi.OutboxStoreException;

/**
 * The {@link OutboxStore} on plain JDBC, for PostgreSQL, MySQL and MariaDB: the SQL that differs comes
 * from the {@link SqlDialect}, the connection from a {@link ConnectionProvider}.
 *
 * <p>Every method runs on the connection of the current transaction and neither commits nor
 * closes it. Thread-safe. Failures of the database surface as {@link OutboxStoreException} naming
 * the operation; a call outside a transaction as {@link IllegalStateException}.
 */
public final class JdbcOutboxStore implements OutboxStore {

    private static final String UPDATE_SQL = """
            UPDATE outbox
            SET status = ?, attempts = ?, next_attempt_at = ?, updated_at = ?, last_error = ?, last_attempt_at = ?,
                delivered_at = NULL, lease_owner = NULL, lease_expires_at = NULL
            WHERE id = ?""";

    private static final String INSERT_ATTEMPT_SQL = """
            INSERT INTO outbox_attempt (entry_id, attempted_at, attempt, outcome, error)
            VALUES (?, ?, ?, ?, ?)""";

    private final ConnectionProvider connections;
    private final SqlDialect dialect;
    private final HeadFailurePolicy headFailurePolicy;
    private final ClaimStatements claims;
    private final String findSql;
    private final String findByKeySql;
    private final String statsSql;

    /** Creates a store whose ordering keys are blocked by a failed head ({@link HeadFailurePolicy#BLOCK}). */
    public JdbcOutboxStore(ConnectionProvider connections, SqlDialect dialect) {
        this(connections, dialect, HeadFailurePolicy.BLOCK);
    }

    /** Creates a store whose claims treat a failed head of an ordering key as {@code headFailurePolicy} says. */
    public JdbcOutboxStore(ConnectionProvider connections, SqlDialect dialect, HeadFailurePolicy headFailurePolicy) {
        this.connections = Objects.requireNonNull(connections, "connections");
        this.dialect = Objects.requireNonNull(dialect, "dialect");
        this.headFailurePolicy = Objects.requireNonNull(headFailurePolicy, "headFailurePolicy");
        this.claims = new ClaimStatements(dialect, headFailurePolicy);
        this.findSql = "SELECT " + dialect.entryColumns() + " FROM outbox WHERE id = ?";
        this.findByKeySql = "SELECT id, delivery_type, " + dialect.sameMetadata("delivery_metadata")
                + " FROM outbox WHERE deduplication_key = ?";
        this.statsSql = """
                SELECT (SELECT COUNT(*) FROM outbox WHERE status = 'PENDING'),
                       (SELECT COUNT(*) FROM outbox WHERE status = 'FAILED'),
                       %s,
                       %s""".formatted(
                dialect.epochMicros("(SELECT MIN(created_at) FROM outbox WHERE status = 'PENDING')"),
                headFailurePolicy == HeadFailurePolicy.BLOCK
                        ? "(SELECT COUNT(DISTINCT ordering_key) FROM outbox WHERE status = 'FAILED' "
                                + "AND ordering_key IS NOT NULL)"
                        : "0");
    }

    /** Returns the dialect this store speaks. */
    public SqlDialect dialect() {
        return dialect;
    }

    @Override
    public HeadFailurePolicy headFailurePolicy() {
        return headFailurePolicy;
    }

    @Override
    public UUID insert(OutboxEntry entry) {
        return run("insert outbox entry " + entry.id(), connection -> {
            int inserted = entry.orderingKey() == null ? insertUnordered(connection, entry)
                    : insertOrdered(connection, entry);
            if (entry.deduplicationKey() == null || (inserted == 1 && dialect.insertCountProvesInsert())) {
                return entry.id();
            }
            return idHoldingKey(connection, entry);
        });
    }

    private int insertUnordered(Connection connection, OutboxEntry entry) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(dialect.insertSql())) {
            bindInsert(statement, 1, entry);
            return statement.executeUpdate();
        }
    }

    /** Takes the key's next sequence number, holding its lock to the end of the transaction, and inserts. */
    private int insertOrdered(Connection connection, OutboxEntry entry) throws SQLException {
        String takeSeq = dialect.takeOrderingSeqSql();
        if (takeSeq != null) {
            try (PreparedStatement statement = connection.prepareStatement(takeSeq)) {
                statement.setString(1, entry.orderingKey());
                statement.executeUpdate();
            }
        }
        try (PreparedStatement statement = connection.prepareStatement(dialect.insertOrderedSql())) {
            statement.setString(1, entry.orderingKey());
            bindInsert(statement, 2, entry);
            return statement.executeUpdate();
        }
    }

    /** Binds the parameters of {@link SqlDialect#insertSql()} from {@code first} on. */
    private void bindInsert(PreparedStatement statement, int first, OutboxEntry entry) throws SQLException {
        dialect.setId(statement, first, entry.id());
        statement.setString(first + 1, entry.messageType());
        statement.setString(first + 2, entry.payload());
        statement.setString(first + 3, entry.deliveryType());
        statement.setString(first + 4, entry.deliveryMetadata());
        statement.setString(first + 5, entry.deduplicationKey());
        statement.setString(first + 6, entry.status().name());
        dialect.setInstant(statement, first + 7, entry.nextAttemptAt());
        dialect.setInstant(statement, first + 8, entry.createdAt());
        dialect.setInstant(statement, first + 9, entry.updatedAt());
        TraceContext trace = entry.traceContext();
        statement.setString(first + 10, trace == null ? null : trace.traceparent());
        statement.setString(first + 11, trace == null ? null : trace.tracestate());
        dialect.setInstant(statement, first + 12, entry.deliveredAt());
    }

    /**
     * The entry holding the key of {@code entry}, which must be bound for the same destination:
     * a key deduplicates one delivery, so the same key for another delivery type or other
     * metadata is a mistake the caller must hear about, not a delivery silently dropped.
     */
    private UUID idHoldingKey(Connection connection, OutboxEntry entry) throws SQLException {
        String key = entry.deduplicationKey();
        try (PreparedStatement statement = connection.prepareStatement(findByKeySql)) {
            statement.setString(1, entry.deliveryMetadata());
            statement.setString(2, key);
            try (ResultSet resultSet = statement.executeQuery()) {
                if (!resultSet.next()) {
                    throw new SQLException("No outbox entry holds deduplication key '" + key
                            + "' although the insert reported a duplicate");
                }
                UUID id = dialect.getId(resultSet, 1);
                String deliveryType = resultSet.getString(2);
                boolean sameMetadata = resultSet.getBoolean(3);
                if (!id.equals(entry.id()) && !(deliveryType.equals(entry.deliveryType()) && sameMetadata)) {
                    throw new IllegalArgumentException("Deduplication key '" + key + "' is already held by outbox entry "
                            + id + " of delivery type '" + deliveryType + "'"
                            + (deliveryType.equals(entry.deliveryType()) ? " with other delivery metadata" : "")
                            + "; this '" + entry.deliveryType() + "' delivery was not written. A key deduplicates one"
                            + " delivery, not one event: give each destination its own key, for example '" + key + ":"
                            + entry.deliveryType() + "'");
                }
                return id;
            }
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>A claimed entry holds every value of its row. The claim does not read the status and
     * the delivery time, which its {@code WHERE status = 'PENDING'} fixes: {@code PENDING} and
     * {@code null}.
     */
    @Override
    public List<OutboxEntry> claim(Set<String> deliveryTypes, Instant now, int limit) {
        return claim(deliveryTypes, null, now, limit);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Leaves out every entry due before {@code dueFrom}: the claim scans one range of the claim
     * index, from {@code dueFrom} to {@code now}.
     */
    @Override
    public List<OutboxEntry> claim(Set<String> deliveryTypes, Instant dueFrom, Instant now, int limit) {
        requirePositiveLimit(limit);
        if (deliveryTypes.isEmpty()) {
            return List.of();
        }
        return run("claim due outbox entries", connection -> claimRows(connection, deliveryTypes, dueFrom, now, limit,
                false, resultSet -> readEntry(resultSet, OutboxStatus.PENDING, null)));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Two statements: the claim of {@link #claim}, which also reads each row's token, then one
     * update that stamps the leases ({@link SqlDialect#stampLeaseSql}).
     */
    @Override
    public List<LeasedEntry> lease(Set<String> deliveryTypes, Instant now, int limit, String owner, Duration length) {
        return lease(deliveryTypes, null, now, limit, owner, length);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Leaves out every entry due before {@code dueFrom}, as {@link #claim(Set, Instant, Instant, int)} does.
     */
    @Override
    public List<LeasedEntry> lease(Set<String> deliveryTypes, Instant dueFrom, Instant now, int limit, String owner,
                                   Duration length) {
        Objects.requireNonNull(owner, "owner");
        requirePositiveLimit(limit);
        if (length.isNegative() || length.isZero()) {
            throw new IllegalArgumentException("length must be > 0, got: " + length);
        }
        if (deliveryTypes.isEmpty()) {
            return List.of();
        }
        return run("lease due outbox entries", connection -> {
            // Column 17, after the claim's 16, is the token before this claim; the stamp below raises it by one.
            List<LeasedEntry> leased = claimRows(connection, deliveryTypes, dueFrom, now, limit,
                    true, resultSet -> new LeasedEntry(
                            readEntry(resultSet, OutboxStatus.PENDING, null), resultSet.getLong(17) + 1));
            if (!leased.isEmpty()) {
                List<UUID> ids = leased.stream().map(lease -> lease.entry().id()).toList();
                try (PreparedStatement statement = connection.prepareStatement(dialect.stampLeaseSql(ids.size()))) {
                    statement.setString(1, owner);
                    statement.setLong(2, length.toNanos() / 1_000L);
                    dialect.bindIds(statement, 3, ids);
                    requireUpdated(statement.executeUpdate(), ids.size());
                }
            }
            return leased;
        });
    }

    private static void requirePositiveLimit(int limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be > 0, got: " + limit);
        }
    }

    /** Runs the claim of {@link ClaimStatements#claimSql}, in lease mode reading the tokens too; maps each row. */
    private <T> List<T> claimRows(Connection connection, Set<String> deliveryTypes, Instant dueFrom, Instant now,
                                  int limit, boolean leased, RowMapper<T> mapper) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(claims.claimSql(deliveryTypes.size(), leased,
                dueFrom != null, limit))) {
            int index = 1;
            if (dueFrom != null) {
                dialect.setInstant(statement, index++, dueFrom);
            }
            dialect.setInstant(statement, index++, now);
            dialect.bindStrings(statement, index, deliveryTypes);
            try (ResultSet resultSet = firstResultSet(statement)) {
                List<T> rows = new ArrayList<>(limit);
                while (resultSet.next()) {
                    rows.add(mapper.map(resultSet));
                }
                return rows;
            }
        }
    }

    /** Runs {@code statement}; returns its first result set, past what a prelude returned. */
    private static ResultSet firstResultSet(PreparedStatement statement) throws SQLException {
        boolean isResultSet = statement.execute();
        while (!isResultSet) {
            if (statement.getUpdateCount() == -1) {
                throw new SQLException("The claim returned no result set");
            }
            isResultSet = statement.getMoreResults();
        }
        return statement.getResultSet();
    }

    /**
     * {@inheritDoc}
     *
     * <p>Locks the entries' rows (waiting: another claim holds a row only for its own short
     * transaction), keeps those whose token is still the one presented, and writes those as
     * {@link #update} does.
     */
    @Override
    public Set<UUID> completeLeased(List<LeasedEntry> entries) {
        if (entries.isEmpty()) {
            return Set.of();
        }
        return run("complete " + entries.size() + " leased outbox entries", connection -> {
            Map<UUID, Long> tokens = lockTokens(connection, entries.stream().map(lease -> lease.entry().id()).toList());
            List<OutboxEntry> held = new ArrayList<>(entries.size());
            Set<UUID> lost = new HashSet<>();
            for (LeasedEntry lease : entries) {
                UUID id = lease.entry().id();
                if (Long.valueOf(lease.token()).equals(tokens.get(id))) {
                    held.add(lease.entry());
                } else {
                    lost.add(id);
                }
            }
            write(connection, held, true);
            return lost;
        });
    }

    /** Locks the rows of {@code ids} until the transaction ends; returns each one's lease token. */
    private Map<UUID, Long> lockTokens(Connection connection, List<UUID> ids) throws SQLException {
        String sql = "SELECT id, lease_token FROM outbox WHERE " + dialect.in("id", ids.size()) + " FOR UPDATE";
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            dialect.bindIds(statement, 1, ids);
            try (ResultSet resultSet = statement.executeQuery()) {
                Map<UUID, Long> tokens = new HashMap<>();
                while (resultSet.next()) {
                    tokens.put(dialect.getId(resultSet, 1), resultSet.getLong(2));
                }
                return tokens;
            }
        }
    }

    @Override
    public void update(List<OutboxEntry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        run("update " + entries.size() + " outbox entries", connection -> {
            write(connection, entries, false);
            return null;
        });
    }

    /**
     * Writes the new state of claimed entries: the delivered ones set-based, by delivery time, the
     * others one batched statement per row.
     *
     * @param attemptCounted whether the claim counted the attempt already (lease mode)
     */
    private void write(Connection connection, List<OutboxEntry> entries, boolean attemptCounted) throws SQLException {
        Map<Instant, List<UUID>> deliveredByTime = new LinkedHashMap<>();
        List<OutboxEntry> others = new ArrayList<>();
        for (OutboxEntry entry : entries) {
            if (entry.status() == OutboxStatus.DELIVERED) {
                deliveredByTime.computeIfAbsent(entry.deliveredAt(), time -> new ArrayList<>()).add(entry.id());
            } else {
                others.add(entry);
            }
        }
        for (Map.Entry<Instant, List<UUID>> delivered : deliveredByTime.entrySet()) {
            markDelivered(connection, delivered.getValue(), delivered.getKey(), attemptCounted);
        }
        if (!others.isEmpty()) {
            updateEach(connection, others);
        }
    }

    /** The common case in one statement: the processor delivers a whole batch at one time. */
    private void markDelivered(Connection connection, List<UUID> ids, Instant deliveredAt, boolean attemptCounted)
            throws SQLException {
        String sql = dialect.markDeliveredSql(ids.size(), attemptCounted);
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            dialect.setInstant(statement, 1, deliveredAt);
            dialect.setInstant(statement, 2, deliveredAt);
            dialect.setInstant(statement, 3, deliveredAt);
            dialect.bindIds(statement, 4, ids);
            requireUpdated(statement.executeUpdate(), ids.size());
        }
    }

    /**
     * Retries, failures and postponements carry their own due time and error: one batched
     * statement per row. The attempts that failed go to the history, in a second batch.
     */
    private void updateEach(Connection connection, List<OutboxEntry> entries) throws SQLException {
        List<OutboxEntry> failedAttempts = new ArrayList<>(entries.size());
        try (PreparedStatement statement = connection.prepareStatement(UPDATE_SQL)) {
            for (OutboxEntry entry : entries) {
                statement.setString(1, entry.status().name());
                statement.setInt(2, entry.attempts());
                dialect.setInstant(statement, 3, entry.nextAttemptAt());
                dialect.setInstant(statement, 4, entry.updatedAt());
                statement.setString(5, entry.lastError());
                dialect.setInstant(statement, 6, entry.lastAttemptAt());
                dialect.setId(statement, 7, entry.id());
                statement.addBatch();
                if (entry.attemptedAtUpdate()) {
                    failedAttempts.add(entry);
                }
            }
            requireUpdated(StoreCalls.executeBatch(statement), entries.size());
        }
        if (!failedAttempts.isEmpty()) {
            recordFailures(connection, failedAttempts);
        }
    }

    /** One history row per failed attempt: {@code FAILED} if it ended the entry, {@code RETRY} otherwise. */
    private void recordFailures(Connection connection, List<OutboxEntry> entries) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(INSERT_ATTEMPT_SQL)) {
            for (OutboxEntry entry : entries) {
                dialect.setId(statement, 1, entry.id());
                dialect.setInstant(statement, 2, entry.lastAttemptAt());
                statement.setInt(3, entry.attempts());
                statement.setString(4, entry.status() == OutboxStatus.FAILED ? "FAILED" : "RETRY");
                statement.setString(5, entry.lastError());
                statement.addBatch();
            }
            StoreCalls.executeBatch(statement);
        }
    }

    private static void requireUpdated(int updated, int expected) throws SQLException {
        if (updated != expected) {
            throw new SQLException("Expected to update " + expected + " claimed outbox entries, updated " + updated
                    + ": were they claimed in this transaction?");
        }
    }

    @Override
    public int purgeDelivered(Instant deliveredBefore, Instant keyedDeliveredBefore, Set<String> exceptTypes,
                              int limit) {
        List<Object> parameters = new ArrayList<>(List.of(deliveredBefore, keyedDeliveredBefore));
        parameters.addAll(exceptTypes);
        return run("purge delivered outbox entries", connection -> dialect.purge(connection, "outbox_purge_idx",
                "status = 'DELIVERED' AND delivered_at < ? AND (deduplication_key IS NULL OR delivered_at < ?)"
                        + (exceptTypes.isEmpty() ? "" : " AND delivery_type NOT IN ("
                        + String.join(", ", Collections.nCopies(exceptTypes.size(), "?")) + ")"),
                "delivered_at", parameters, limit));
    }

    @Override
    public int purgeDeliveredOfType(String deliveryType, Instant deliveredBefore, Instant keyedDeliveredBefore,
                                    int limit) {
        return run("purge delivered '" + deliveryType + "' outbox entries", connection -> dialect.purge(connection,
                "outbox_purge_idx", "status = 'DELIVERED' AND delivered_at < ? AND (deduplication_key IS NULL OR "
                        + "delivered_at < ?) AND delivery_type = ?", "delivered_at",
                List.of(deliveredBefore, keyedDeliveredBefore, deliveryType), limit));
    }

    @Override
    public int purgeDiscarded(Instant discardedBefore, int limit) {
        // A discarded entry's updated_at is when it was discarded: nothing changes it afterwards.
        return run("purge discarded outbox entries", connection -> dialect.purge(connection,
                "outbox_status_updated_idx", "status = 'DISCARDED' AND updated_at < ?", "updated_at",
                List.of(discardedBefore), limit));
    }

    @Override
    public Optional<OutboxEntry> find(UUID id) {
        return run("find outbox entry " + id, connection -> {
            try (PreparedStatement statement = connection.prepareStatement(findSql)) {
                dialect.setId(statement, 1, id);
                try (ResultSet resultSet = statement.executeQuery()) {
                    if (!resultSet.next()) {
                        return Optional.empty();
                    }
                    OutboxStatus status = OutboxStatus.valueOf(resultSet.getString(17));
                    return Optional.of(readEntry(resultSet, status, SqlDialect.getInstant(resultSet, 18)));
                }
            }
        });
    }

    @Override
    public OutboxStats stats(Instant now) {
        return run("read outbox statistics", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(statsSql);
                 ResultSet resultSet = statement.executeQuery()) {
                resultSet.next();
                Instant oldest = SqlDialect.getInstant(resultSet, 3);
                Duration age = oldest == null || oldest.isAfter(now) ? Duration.ZERO : Duration.between(oldest, now);
                return new OutboxStats(resultSet.getLong(1), resultSet.getLong(2), age, resultSet.getLong(4));
            }
        });
    }

    /** Maps a row of {@link SqlDialect#claimColumns()}, with the status and delivery time given. */
    private OutboxEntry readEntry(ResultSet resultSet, OutboxStatus status, Instant deliveredAt) throws SQLException {
        return new OutboxEntry(
                dialect.getId(resultSet, 1),
                resultSet.getString(2),
                resultSet.getString(3),
                resultSet.getString(4),
                resultSet.getString(5),
                resultSet.getString(6),
                resultSet.getString(13),
                orderingSeq(resultSet),
                status,
                resultSet.getInt(7),
                SqlDialect.getInstant(resultSet, 8),
                SqlDialect.getInstant(resultSet, 9),
                SqlDialect.getInstant(resultSet, 10),
                resultSet.getString(11),
                deliveredAt,
                SqlDialect.getInstant(resultSet, 12),
                // Leniently: a context that is no longer valid (edited by hand) is dropped, never fails the claim.
                TraceContext.parse(resultSet.getString(15), resultSet.getString(16)));
    }

    private static Long orderingSeq(ResultSet resultSet) throws SQLException {
        long seq = resultSet.getLong(14);
        return resultSet.wasNull() ? null : seq;
    }

    private <T> T run(String operation, ConnectionProvider.SqlFunction<T> work) {
        return StoreCalls.run(connections, operation, work);
    }
}
