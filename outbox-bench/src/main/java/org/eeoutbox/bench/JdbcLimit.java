package org.eeoutbox.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executor;

/**
 * The drain limit: a hand-written JDBC loop doing what the engine must do with a no-op transport,
 * and nothing else. Each worker holds one pooled connection (auto-commit off, READ COMMITTED) and
 * its prepared statements, and per batch issues the claim the engine issues (same WHERE, ORDER BY,
 * literal LIMIT and {@code FOR UPDATE SKIP LOCKED}, reading the columns a delivery needs), one set-based
 * status update ({@code id = ANY(?)} on PostgreSQL, {@code IN (…)} on MySQL) and the commit. Like
 * the engine, a worker stops at the first short batch.
 */
final class JdbcLimit {

    /** The columns a delivery needs: what to send, where, and the attempt count for the backoff. */
    static final String NEEDED_COLUMNS = "id, message_type, payload, delivery_type, delivery_metadata, attempts";

    /** Every column, as the library's claim reads them; for the {@code --limit-claim=all} diagnostic. */
    static final String ALL_COLUMNS = "id, message_type, payload, delivery_type, delivery_metadata, "
            + "deduplication_key, status, attempts, next_attempt_at, created_at, updated_at, last_error, delivered_at";

    private static final String PG_CLAIM = """
            SELECT %s
            FROM outbox
            WHERE status = 'PENDING' AND next_attempt_at <= ? AND delivery_type = ANY (?)
            ORDER BY next_attempt_at, id
            LIMIT %d
            FOR UPDATE SKIP LOCKED""";
    private static final String PG_UPDATE = """
            UPDATE outbox
            SET status = 'DELIVERED', attempts = attempts + 1, updated_at = ?, delivered_at = ?
            WHERE id = ANY (?)""";
    private static final String MYSQL_CLAIM = """
            SELECT %s
            FROM outbox FORCE INDEX (outbox_claim_idx)
            WHERE status = 'PENDING' AND next_attempt_at <= ? AND delivery_type IN (?)
            ORDER BY next_attempt_at, id
            LIMIT %d
            FOR UPDATE SKIP LOCKED""";
    private static final String MYSQL_UPDATE = """
            UPDATE outbox
            SET status = 'DELIVERED', attempts = attempts + 1, updated_at = ?, delivered_at = ?
            WHERE id IN (%s)""";

    private final BenchDatabase db;
    private final String deliveryType;
    private final int batchSize;
    private final int workers;
    private final Executor executor;
    private final String claimSql;
    private final int columnCount;

    /**
     * @param allColumns read every column like the library's claim (a diagnostic), instead of the
     *                   columns a delivery needs
     */
    JdbcLimit(BenchDatabase db, String deliveryType, int batchSize, int workers, Executor executor,
              boolean allColumns) {
        this.db = db;
        this.deliveryType = deliveryType;
        this.batchSize = batchSize;
        this.workers = workers;
        this.executor = executor;
        String columns = allColumns ? ALL_COLUMNS : NEEDED_COLUMNS;
        this.claimSql = (db.isPostgresql() ? PG_CLAIM : MYSQL_CLAIM).formatted(columns, batchSize);
        this.columnCount = columns.split(",").length;
    }

    /**
     * Drains everything due with {@code workers} loops and checks that exactly {@code expected}
     * rows were marked delivered.
     */
    long drain(int expected) throws Exception {
        long processed = Runner.inParallel(workers, executor, this::worker);
        if (processed != expected) {
            throw new IllegalStateException("The JDBC limit processed " + processed + " rows, expected " + expected);
        }
        return processed;
    }

    private long worker() throws SQLException {
        long processed = 0;
        long checksum = 0;
        Map<Integer, PreparedStatement> mysqlUpdates = new HashMap<>();
        try (Connection connection = db.pool().getConnection();
             PreparedStatement claim = connection.prepareStatement(claimSql);
             PreparedStatement pgUpdate = db.isPostgresql() ? connection.prepareStatement(PG_UPDATE) : null) {
            if (db.isPostgresql()) {
                claim.setArray(2, connection.createArrayOf("varchar", new Object[] {deliveryType}));
            } else {
                claim.setString(2, deliveryType);
            }
            int claimed;
            do {
                setInstant(claim, 1, now());
                List<Object> ids = new ArrayList<>(batchSize);
                try (ResultSet rows = claim.executeQuery()) {
                    while (rows.next()) {
                        ids.add(db.isPostgresql() ? rows.getObject(1, UUID.class) : rows.getBytes(1));
                        for (int column = 2; column <= columnCount; column++) {
                            String value = rows.getString(column);
                            checksum += value == null ? 0 : value.length();
                        }
                    }
                }
                claimed = ids.size();
                if (claimed > 0) {
                    PreparedStatement update = db.isPostgresql() ? pgUpdate
                            : mysqlUpdates.computeIfAbsent(claimed, size -> prepare(connection,
                                    MYSQL_UPDATE.formatted(String.join(", ", Collections.nCopies(size, "?")))));
                    Instant now = now();
                    setInstant(update, 1, now);
                    setInstant(update, 2, now);
                    if (db.isPostgresql()) {
                        update.setArray(3, connection.createArrayOf("uuid", ids.toArray()));
                    } else {
                        for (int i = 0; i < claimed; i++) {
                            update.setBytes(3 + i, (byte[]) ids.get(i));
                        }
                    }
                    int updated = update.executeUpdate();
                    if (updated != claimed) {
                        throw new SQLException("Updated " + updated + " rows of " + claimed + " claimed");
                    }
                }
                connection.commit();
                processed += claimed;
            } while (claimed == batchSize);
        } finally {
            for (PreparedStatement statement : mysqlUpdates.values()) {
                statement.close();
            }
        }
        if (checksum < 0) {
            throw new AssertionError("unreachable: keeps the column reads observable");
        }
        return processed;
    }

    private static PreparedStatement prepare(Connection connection, String sql) {
        try {
            return connection.prepareStatement(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }

    /**
     * Binds an instant the cheapest way each driver offers, as the library's dialects do: on
     * PostgreSQL ISO 8601 text of no declared type (pgJDBC's {@code OffsetDateTime} binding builds a
     * calendar-backed converter per statement), on MySQL a {@code LocalDateTime} at UTC built
     * without looking up the zone's rules.
     */
    private void setInstant(PreparedStatement statement, int index, Instant instant) throws SQLException {
        if (db.isPostgresql()) {
            statement.setObject(index, instant.toString(), Types.OTHER);
        } else {
            statement.setObject(index, LocalDateTime.ofEpochSecond(instant.getEpochSecond(), instant.getNano(),
                    ZoneOffset.UTC));
        }
    }
}
