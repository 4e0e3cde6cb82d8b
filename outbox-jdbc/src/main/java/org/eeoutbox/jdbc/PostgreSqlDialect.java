package org.eeoutbox.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.eeoutbox.spi.HeadFailurePolicy;

/** PostgreSQL 12 or later: native {@code uuid}, {@code timestamptz} and array parameters. */
public final class PostgreSqlDialect extends SqlDialect {

    /** The advisory lock key of schema changes: "eeoutbox" in ASCII. */
    private static final long SCHEMA_LOCK_KEY = 0x65656f7574626f78L;

    /** The first and last second of the years 0001 to 9999, whose ISO 8601 text the server reads. */
    private static final long FIRST_ISO_SECOND = Instant.parse("0001-01-01T00:00:00Z").getEpochSecond();
    private static final long LAST_ISO_SECOND = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();

    PostgreSqlDialect() {
    }

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    void setId(PreparedStatement statement, int index, UUID id) throws SQLException {
        statement.setObject(index, id);
    }

    @Override
    UUID getId(ResultSet resultSet, int index) throws SQLException {
        return resultSet.getObject(index, UUID.class);
    }

    @Override
    void setInstant(PreparedStatement statement, int index, Instant instant) throws SQLException {
        if (instant != null && instant.getEpochSecond() >= FIRST_ISO_SECOND
                && instant.getEpochSecond() <= LAST_ISO_SECOND) {
            // ISO 8601 text ending in Z, of no declared type: the server reads it as the timestamptz
            // the statement compares or assigns it to, whatever the session's TimeZone. pgJDBC's own
            // timestamptz binding builds a calendar-backed converter for every statement, an eighth
            // of the engine's time in a 10-entry drain (BENCHMARKS.md, "the claim's text built once").
            statement.setObject(index, isoText(instant), Types.OTHER);
        } else {
            // An OffsetDateTime at UTC binds as timestamptz: no conversion through the JVM's zone.
            statement.setObject(index, instant == null ? null : instant.atOffset(ZoneOffset.UTC));
        }
    }

    /**
     * Returns {@code instant} as {@code yyyy-MM-ddTHH:mm:ss.nnnnnnnnnZ}, what {@link Instant#toString()}
     * gives with all nine fraction digits, at a fraction of its cost (no formatter); the server
     * rounds the fraction to microseconds. For the years 0001 to 9999 only.
     */
    static String isoText(Instant instant) {
        LocalDateTime time = LocalDateTime.ofEpochSecond(instant.getEpochSecond(), instant.getNano(), ZoneOffset.UTC);
        char[] text = "0000-00-00T00:00:00.000000000Z".toCharArray();
        digits(text, 0, 4, time.getYear());
        digits(text, 5, 2, time.getMonthValue());
        digits(text, 8, 2, time.getDayOfMonth());
        digits(text, 11, 2, time.getHour());
        digits(text, 14, 2, time.getMinute());
        digits(text, 17, 2, time.getSecond());
        digits(text, 20, 9, time.getNano());
        return new String(text);
    }

    /** Writes {@code value}'s last {@code count} decimal digits into {@code text} from {@code start}. */
    private static void digits(char[] text, int start, int count, int value) {
        for (int i = start + count - 1; i >= start; i--) {
            text[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

    @Override
    String epochMicros(String column) {
        // date_part computes in float8 on every version (EXTRACT returns numeric from 14 on, whose
        // arithmetic cost the server more than the driver saved). Exact: the float8 error stays
        // below half a microsecond up to 2041 at least (none found up to 2100), so the cast, which
        // rounds, gives the stored value. Independent of the session's TimeZone.
        return "CAST(date_part('epoch', " + column + ") * 1000000 AS bigint)";
    }

    @Override
    String insertSql() {
        // ON CONFLICT DO NOTHING: a duplicate key neither raises nor aborts the caller's transaction.
        // A concurrent insert of the same key waits for the other transaction, then does nothing.
        return """
                INSERT INTO outbox (id, message_type, payload, delivery_type, delivery_metadata, deduplication_key,
                                    status, attempts, next_attempt_at, created_at, updated_at, trace_parent, trace_state,
                                    delivered_at)
                VALUES (?, ?, ?, ?, CAST(? AS json), ?, ?, 0, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (deduplication_key) DO NOTHING""";
    }

    @Override
    String insertOrderedSql() {
        // One statement: the upsert of the key's sequence runs to completion (and keeps its row
        // locked) whether or not the entry's insert conflicts on the deduplication key.
        return """
                WITH seq AS (
                    INSERT INTO outbox_key_sequence (ordering_key, last_seq) VALUES (?, 1)
                    ON CONFLICT (ordering_key) DO UPDATE SET last_seq = outbox_key_sequence.last_seq + 1
                    RETURNING ordering_key, last_seq)
                INSERT INTO outbox (id, message_type, payload, delivery_type, delivery_metadata, deduplication_key,
                                    status, attempts, next_attempt_at, created_at, updated_at, trace_parent, trace_state,
                                    delivered_at, ordering_key, ordering_seq)
                SELECT ?, ?, ?, ?, CAST(? AS json), ?, ?, 0, ?, ?, ?, ?, ?, ?, seq.ordering_key, seq.last_seq
                FROM seq
                ON CONFLICT (deduplication_key) DO NOTHING""";
    }

    @Override
    String takeOrderingSeqSql() {
        return null;
    }

    @Override
    String sameMetadata(String column) {
        // json keeps the text as written and has no equality operator; jsonb compares values.
        return "(CAST(" + column + " AS jsonb) = CAST(? AS jsonb))";
    }

    @Override
    boolean insertCountProvesInsert() {
        return true;
    }

    @Override
    String claimTable() {
        // Served by the partial index outbox_claim_idx (next_attempt_at, id) WHERE status = 'PENDING'.
        // The pause table is read once per claim, as a hashed subplan probed per row: no extra
        // round trip, and the plan of the outbox scan stays as it was. FOR UPDATE locks no pause row.
        return "outbox";
    }

    /**
     * Makes the claim run its cached generic plan. Its two bounds on {@code next_attempt_at} are a
     * range PostgreSQL's generic plan guesses at 0.5 % of the rows; on a backlog of tens of
     * thousands of entries that plan costs more than each claim's own, so the server would plan
     * every claim anew, a quarter of a 10-entry batch's time on the database (BENCHMARKS.md,
     * "History stays flat"). The generic plan is the same index range scan. {@code SET LOCAL}
     * ends with the claim's transaction, so no pooled connection keeps it.
     */
    @Override
    String claimFromDueTimePrelude() {
        return "SET LOCAL plan_cache_mode = force_generic_plan;\n";
    }

    @Override
    String databaseNow() {
        // The statement's start rather than the transaction's (now()): the same in a short claim.
        return "statement_timestamp()";
    }

    @Override
    String databaseNowPlusMicros() {
        return "statement_timestamp() + CAST(? AS bigint) * INTERVAL '1 microsecond'";
    }

    @Override
    int bindStrings(PreparedStatement statement, int index, Collection<String> values) throws SQLException {
        if (values.size() == 1) {
            statement.setString(index, values.iterator().next());
        } else {
            statement.setArray(index, statement.getConnection().createArrayOf("varchar", values.toArray()));
        }
        return index + 1;
    }

    @Override
    int bindIds(PreparedStatement statement, int index, Collection<UUID> ids) throws SQLException {
        if (ids.size() == 1) {
            setId(statement, index, ids.iterator().next());
        } else {
            statement.setArray(index, statement.getConnection().createArrayOf("uuid", ids.toArray()));
        }
        return index + 1;
    }

    /**
     * {@inheritDoc}
     *
     * <p>One array parameter, so that the text does not change with the count, except for one value,
     * compared as a scalar: a claim's single delivery type then costs no array built and parsed.
     */
    @Override
    String in(String column, int count) {
        return count == 1 ? column + " = ?" : column + " = ANY (?)";
    }

    @Override
    int purge(Connection connection, String index, String condition, String orderColumn, List<?> parameters,
              int limit) throws SQLException {
        // SKIP LOCKED in the subquery: purging never waits for, nor blocks, another purger. The
        // planner picks the partial index matching the condition's status by itself.
        String sql = """
                DELETE FROM outbox
                WHERE id IN (SELECT id
                             FROM outbox
                             WHERE %s
                             ORDER BY %s
                             LIMIT ?
                             FOR UPDATE SKIP LOCKED)""".formatted(condition, orderColumn);
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            int next = bindPurge(statement, parameters);
            statement.setInt(next, limit);
            return statement.executeUpdate();
        }
    }

    @Override
    String feedTable() {
        // The planner picks the partial index outbox_feed_idx (ordering_key, ordering_seq)
        // WHERE delivery_type = 'feed' by itself: the query repeats that predicate.
        return "outbox";
    }

    @Override
    String pauseSql() {
        return "INSERT INTO outbox_pause (delivery_type, paused_at, paused_by) VALUES (?, ?, ?) "
                + "ON CONFLICT (delivery_type) DO NOTHING";
    }

    @Override
    <T> T withSchemaLock(Connection connection, ConnectionProvider.SqlFunction<T> work) throws SQLException {
        // A session lock, taken before the transaction begins: a transaction that took the lock
        // inside itself would read the catalog as cached at its start and miss a table that the
        // lock's previous holder had just created. The DDL is transactional: a migration applies
        // whole or not at all.
        try (Statement statement = connection.createStatement()) {
            statement.execute("SELECT pg_advisory_lock(" + SCHEMA_LOCK_KEY + ")");
            try {
                connection.setAutoCommit(false);
                try {
                    T result = work.apply(connection);
                    connection.commit();
                    return result;
                } catch (SQLException | RuntimeException e) {
                    connection.rollback();
                    throw e;
                } finally {
                    connection.setAutoCommit(true);
                }
            } finally {
                statement.execute("SELECT pg_advisory_unlock(" + SCHEMA_LOCK_KEY + ")");
            }
        }
    }

    @Override
    String readTableComment(Connection connection) throws SQLException {
        // to_regclass follows the search_path, as the store's unqualified table name does.
        String sql = "SELECT to_regclass('outbox') IS NOT NULL, obj_description(to_regclass('outbox'), 'pg_class')";
        try (PreparedStatement statement = connection.prepareStatement(sql);
             ResultSet resultSet = statement.executeQuery()) {
            resultSet.next();
            if (!resultSet.getBoolean(1)) {
                return null;
            }
            String comment = resultSet.getString(2);
            return comment == null ? "" : comment;
        }
    }
}
