package org.eeoutbox.jdbc;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import org.eeoutbox.spi.HeadFailurePolicy;

/**
 * MySQL 8.0 or later: ids as {@code BINARY(16)}, instants as UTC in {@code DATETIME(6)}, sets as
 * {@code IN (?, …)} lists. The SQL runs on 8.0.15 and later (no row alias in upserts), and on
 * MariaDB except where {@link MariaDbDialect} overrides it.
 */
public sealed class MySqlDialect extends SqlDialect permits MariaDbDialect {

    /** The named lock of schema changes, and how long a starting instance waits for it. */
    private static final String SCHEMA_LOCK = "eeoutbox.schema";
    private static final int SCHEMA_LOCK_TIMEOUT_SECONDS = 120;

    MySqlDialect() {
    }

    @Override
    public String name() {
        return "mysql";
    }

    @Override
    void setId(PreparedStatement statement, int index, UUID id) throws SQLException {
        // Big-endian, so time-ordered (version 7) ids sort by time in the primary key.
        statement.setBytes(index, ByteBuffer.allocate(16)
                .putLong(id.getMostSignificantBits())
                .putLong(id.getLeastSignificantBits())
                .array());
    }

    @Override
    UUID getId(ResultSet resultSet, int index) throws SQLException {
        ByteBuffer bytes = ByteBuffer.wrap(resultSet.getBytes(index));
        return new UUID(bytes.getLong(), bytes.getLong());
    }

    @Override
    void setInstant(PreparedStatement statement, int index, Instant instant) throws SQLException {
        // A LocalDateTime is sent as written: no session or JVM time zone conversion. DATETIME(6)
        // would round nanoseconds; OutboxEntry already truncated them to microseconds.
        // ofEpochSecond rather than ofInstant: no ZoneRules built for UTC on every bind.
        statement.setObject(index, instant == null ? null
                : LocalDateTime.ofEpochSecond(instant.getEpochSecond(), instant.getNano(), ZoneOffset.UTC));
    }

    @Override
    String epochMicros(String column) {
        // DATETIME holds UTC and is never converted by the session's time_zone; the integer
        // difference is exact.
        return "TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', " + column + ")";
    }

    @Override
    String insertSql() {
        // ON DUPLICATE KEY UPDATE with a no-op assignment: a duplicate deduplication key is neither
        // an error nor a write. (INSERT IGNORE would also silence truncation and other errors.)
        return """
                INSERT INTO outbox (id, message_type, payload, delivery_type, delivery_metadata, deduplication_key,
                                    status, attempts, next_attempt_at, created_at, updated_at, trace_parent, trace_state, delivered_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)
                ON DUPLICATE KEY UPDATE id = id""";
    }

    @Override
    String insertOrderedSql() {
        // LAST_INSERT_ID() is the number takeOrderingSeqSql() just took on this connection.
        return """
                INSERT INTO outbox (ordering_key, id, message_type, payload, delivery_type, delivery_metadata,
                                    deduplication_key, status, attempts, next_attempt_at, created_at, updated_at,
                                    trace_parent, trace_state, delivered_at, ordering_seq)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, LAST_INSERT_ID())
                ON DUPLICATE KEY UPDATE id = id""";
    }

    @Override
    String takeOrderingSeqSql() {
        // LAST_INSERT_ID(expr) returns expr and keeps it for the connection's next LAST_INSERT_ID():
        // the number taken travels to the insert without a round trip. No auto-increment column
        // is written in between. (8.0.15 has no row alias: last_seq names the row's old value.)
        return """
                INSERT INTO outbox_key_sequence (ordering_key, last_seq) VALUES (?, LAST_INSERT_ID(1))
                ON DUPLICATE KEY UPDATE last_seq = LAST_INSERT_ID(last_seq + 1)""";
    }

    @Override
    String sameMetadata(String column) {
        // A JSON column is stored normalised; comparing with a JSON value compares values.
        return "(" + column + " = CAST(? AS JSON))";
    }

    @Override
    boolean insertCountProvesInsert() {
        // Connector/J reports found rows, so a duplicate also counts 1: look the key up instead.
        return false;
    }

    @Override
    String claimTable() {
        // FORCE INDEX keeps the optimizer on (status, next_attempt_at, id), so the scan follows the
        // ORDER BY and SKIP LOCKED row-locks only the rows LIMIT returns. MySQL wants LIMIT before
        // FOR UPDATE. The pause table is read in the same statement (materialized once, probed per
        // row); a locking read does not lock the rows of a subquery. The head check stays a
        // dependent subquery under its OR (no antijoin whose rows the locking read would lock and
        // skip), served by outbox_ordering_idx (ordering_key, status, ordering_seq).
        return "outbox FORCE INDEX (outbox_claim_idx)";
    }

    @Override
    String isKeyHead(HeadFailurePolicy policy) {
        return keyedRowsMeetAll(noBlockingEarlierEntry(policy));
    }

    @Override
    String isClaimableKeyHead(HeadFailurePolicy policy) {
        // InnoDB's locking read reads each row as last committed, its subqueries in the statement's
        // snapshot (at READ COMMITTED, taken as the statement starts). A key's head and successor
        // committed while the claim scans are rows to it and absent from the head check: both
        // would pass. The successor passes only if it is in the snapshot too, and then so is its
        // head, committed before the successor could take the key's next number. Tested last: a
        // primary key probe per keyed row that passed the head check. A scalar subquery, not
        // EXISTS, which MariaDB turns into IN and materializes: every id of the table, per claim.
        List<String> conditions = noBlockingEarlierEntry(policy);
        conditions.add("(SELECT 1 FROM outbox seen WHERE seen.id = outbox.id) IS NOT NULL");
        return keyedRowsMeetAll(conditions);
    }

    /** Unkeyed rows pass; keyed rows must meet every condition, tested in the list's order. */
    private static String keyedRowsMeetAll(List<String> conditions) {
        return "(ordering_key IS NULL OR (" + String.join(" AND ", conditions) + "))";
    }

    /**
     * One NOT EXISTS per blocking status: each looks up (ordering_key, status) in
     * outbox_ordering_idx and reads only the key's pending (or failed) entries. With
     * status IN (...) the dependent subquery looked up ordering_key alone and read the key's whole
     * delivered history (EXPLAIN: key_len of ordering_key only). FORCE INDEX: with few FAILED rows
     * the optimizer chose outbox_claim_idx for status = 'FAILED', which reads every failed entry
     * of every key.
     */
    private static List<String> noBlockingEarlierEntry(HeadFailurePolicy policy) {
        // A new, mutable list: isClaimableKeyHead appends to it.
        List<String> none = new ArrayList<>();
        for (String status : blockingStatuses(policy)) {
            none.add(noEarlierEntry("outbox earlier FORCE INDEX (outbox_ordering_idx)", "earlier.status = " + status));
        }
        return none;
    }

    @Override
    String databaseNow() {
        // DATETIME(6) holds UTC: UTC_TIMESTAMP, not NOW(), which follows the session's time_zone.
        return "UTC_TIMESTAMP(6)";
    }

    @Override
    String databaseNowPlusMicros() {
        return "DATE_ADD(UTC_TIMESTAMP(6), INTERVAL ? MICROSECOND)";
    }

    @Override
    int bindStrings(PreparedStatement statement, int index, Collection<String> values) throws SQLException {
        for (String value : values) {
            statement.setString(index++, value);
        }
        return index;
    }

    @Override
    int bindIds(PreparedStatement statement, int index, Collection<UUID> ids) throws SQLException {
        for (UUID id : ids) {
            setId(statement, index++, id);
        }
        return index;
    }

    @Override
    String in(String column, int count) {
        return column + " IN (" + placeholders(count) + ")";
    }

    @Override
    int purge(Connection connection, String index, String condition, String orderColumn, List<?> parameters,
              int limit) throws SQLException {
        // MySQL has no SKIP LOCKED for DELETE and no DELETE with a subquery on its own table: lock
        // the batch with a skipping SELECT (on the index, so only the rows LIMIT returns are
        // locked), then delete it by primary key.
        String select = """
                SELECT id
                FROM outbox FORCE INDEX (%s)
                WHERE %s
                ORDER BY %s
                LIMIT ?
                FOR UPDATE SKIP LOCKED""".formatted(index, condition, orderColumn);
        List<UUID> ids = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(select)) {
            int next = bindPurge(statement, parameters);
            statement.setInt(next, limit);
            try (ResultSet resultSet = statement.executeQuery()) {
                while (resultSet.next()) {
                    ids.add(getId(resultSet, 1));
                }
            }
        }
        if (ids.isEmpty()) {
            return 0;
        }
        try (PreparedStatement statement = connection.prepareStatement(
                "DELETE FROM outbox WHERE id IN (" + placeholders(ids.size()) + ")")) {
            bindIds(statement, 1, ids);
            return statement.executeUpdate();
        }
    }

    @Override
    String feedTable() {
        // outbox_ordering_idx (ordering_key, status, ordering_seq): a feed's rows are all DELIVERED,
        // so key and status are equalities and the range on ordering_seq comes out in order.
        // Forced: with many delivered rows of one key the optimizer may prefer the primary key.
        return "outbox FORCE INDEX (outbox_ordering_idx)";
    }

    @Override
    String pauseSql() {
        // IGNORE only skips the duplicate key here: every value is checked before it is bound.
        return "INSERT IGNORE INTO outbox_pause (delivery_type, paused_at, paused_by) VALUES (?, ?, ?)";
    }

    @Override
    <T> T withSchemaLock(Connection connection, ConnectionProvider.SqlFunction<T> work) throws SQLException {
        // MySQL commits each DDL statement by itself, so a named lock (held by the session, not a
        // transaction) serializes the migrations.
        try (PreparedStatement lock = connection.prepareStatement("SELECT GET_LOCK(?, ?)")) {
            lock.setString(1, SCHEMA_LOCK);
            lock.setInt(2, SCHEMA_LOCK_TIMEOUT_SECONDS);
            try (ResultSet resultSet = lock.executeQuery()) {
                resultSet.next();
                if (resultSet.getInt(1) != 1) {
                    throw new SQLException("Could not take the lock '" + SCHEMA_LOCK + "' for the outbox migration within "
                            + SCHEMA_LOCK_TIMEOUT_SECONDS + " s: is another instance still migrating?");
                }
            }
        }
        try {
            return work.apply(connection);
        } finally {
            try (PreparedStatement unlock = connection.prepareStatement("SELECT RELEASE_LOCK(?)")) {
                unlock.setString(1, SCHEMA_LOCK);
                unlock.executeQuery().close();
            }
        }
    }

    @Override
    String readTableComment(Connection connection) throws SQLException {
        String sql = "SELECT table_comment FROM information_schema.tables "
                + "WHERE table_schema = DATABASE() AND table_name = 'outbox'";
        try (PreparedStatement statement = connection.prepareStatement(sql);
             ResultSet resultSet = statement.executeQuery()) {
            return resultSet.next() ? resultSet.getString(1) : null;
        }
    }

    @Override
    void verifyServerSettings(Connection connection) throws SQLException {
        // InnoDB refuses writes at READ COMMITTED when statement-based binary logging is on.
        try (PreparedStatement statement = connection.prepareStatement("SELECT @@log_bin, @@binlog_format");
             ResultSet resultSet = statement.executeQuery()) {
            resultSet.next();
            if (resultSet.getBoolean(1) && "STATEMENT".equalsIgnoreCase(resultSet.getString(2))) {
                throw new IllegalStateException("MySQL runs with binlog_format=STATEMENT, which InnoDB refuses at "
                        + "READ COMMITTED isolation. Set binlog_format=ROW (the MySQL 8 default).");
            }
        }
    }

    private static String placeholders(int count) {
        return String.join(", ", Collections.nCopies(count, "?"));
    }
}
