package org.eeoutbox.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.eeoutbox.jdbc.DatabaseCheck;
import org.eeoutbox.jdbc.SqlDialect;
import org.eeoutbox.testkit.TestDatabase;

/**
 * One outbox table to benchmark against: a PostgreSQL schema or a MySQL database of a test server,
 * with two HikariCP pools on it. The measuring pool hands out connections with auto-commit off at
 * READ COMMITTED, as a hand-written loop would configure it; engine and limits share it. The admin
 * pool (auto-commit on) seeds, truncates and analyzes, untimed.
 *
 * <p>Rows are seeded with one set-based statement per 100,000 rows (PostgreSQL
 * {@code generate_series}, MySQL a recursive CTE). Their ids are time-ordered like the library's
 * version 7 UUIDs: a per-seed prefix that only grows, then the row number.
 */
final class BenchDatabase implements AutoCloseable {

    static final String PAYLOAD = "{\"orderId\":\"0b7c5e2e-7f0e-4d3a-9c51-2f1d8c9e4a10\",\"customer\":\"c-1042\","
            + "\"items\":[{\"sku\":\"A-100\",\"qty\":2,\"price\":\"19.90\"},{\"sku\":\"B-7\",\"qty\":1,"
            + "\"price\":\"5.00\"}],\"total\":\"44.80\",\"currency\":\"EUR\",\"placedAt\":\"2025-01-01T12:00:00Z\"}";

    private static final int SEED_CHUNK = 100_000;
    private static final String DROP_OUTBOX_TABLES = "DROP TABLE IF EXISTS outbox_attempt, outbox_pause, outbox_key_sequence, outbox";
    private static final AtomicLong ID_PREFIX = new AtomicLong(System.currentTimeMillis());

    private static final String PG_SEED = """
            INSERT INTO outbox (id, message_type, payload, delivery_type, delivery_metadata, status, attempts,
                                next_attempt_at, created_at, updated_at, delivered_at)
            SELECT (lpad(to_hex(CAST(? AS bigint)), 12, '0') || '7000' || '8' || lpad(to_hex(g), 15, '0'))::uuid,
                   'bench.event', ?, ?, CAST(? AS json), ?, ?, t, t, t, CASE WHEN ? THEN t END
            FROM (SELECT g, CAST(? AS timestamptz) + g * interval '1 microsecond' AS t
                  FROM generate_series(1, ?) AS g) AS s""";

    private static final String MYSQL_SEED = """
            INSERT INTO outbox (id, message_type, payload, delivery_type, delivery_metadata, status, attempts,
                                next_attempt_at, created_at, updated_at, delivered_at)
            WITH RECURSIVE seq (g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM seq WHERE g < ?)
            SELECT UNHEX(CONCAT(LPAD(HEX(?), 12, '0'), '7000', '8', LPAD(HEX(g), 15, '0'))),
                   'bench.event', ?, ?, ?, ?, ?, t, t, t, CASE WHEN ? THEN t END
            FROM (SELECT g, TIMESTAMPADD(MICROSECOND, g, ?) AS t FROM seq) AS s""";

    private final String label;
    private final boolean postgresql;
    private final HikariDataSource admin;
    private final HikariDataSource pool;
    private final SqlDialect dialect;

    private BenchDatabase(String label, boolean postgresql, HikariDataSource admin, HikariDataSource pool,
                          SqlDialect dialect) {
        this.label = label;
        this.postgresql = postgresql;
        this.admin = admin;
        this.pool = pool;
        this.dialect = dialect;
    }

    /**
     * Opens the outbox table in {@code schema} of the test server (a PostgreSQL schema or a MySQL
     * database, created if missing; {@code null} for the server's default), dropping any table
     * left from an earlier run and creating it anew from the library's migration.
     */
    static BenchDatabase open(TestDatabase server, String schema) throws SQLException {
        boolean postgresql = server.name().equals("postgresql");
        if (schema != null) {
            try (Connection connection = server.dataSource().getConnection();
                 Statement statement = connection.createStatement()) {
                statement.execute(postgresql ? "CREATE SCHEMA IF NOT EXISTS " + schema
                        : "CREATE DATABASE IF NOT EXISTS " + schema);
            }
        }
        HikariDataSource admin = pool(server, schema, "admin", 2, true);
        HikariDataSource pool = pool(server, schema, "bench", 8, false);
        try {
            try (Connection connection = admin.getConnection();
                 Statement statement = connection.createStatement()) {
                statement.execute(DROP_OUTBOX_TABLES);
                statement.execute("DROP TABLE IF EXISTS bench_order");
                statement.execute(postgresql
                        ? "CREATE TABLE bench_order (id bigint PRIMARY KEY, customer varchar(64) NOT NULL, "
                        + "amount numeric(12, 2) NOT NULL, details text NOT NULL, created_at timestamptz NOT NULL)"
                        : "CREATE TABLE bench_order (id BIGINT PRIMARY KEY, customer VARCHAR(64) NOT NULL, "
                        + "amount DECIMAL(12, 2) NOT NULL, details TEXT NOT NULL, created_at DATETIME(6) NOT NULL)");
            }
            SqlDialect dialect = DatabaseCheck.forLocalTransactions(admin, true);
            String label = server.name() + (schema == null ? "" : "/" + schema);
            return new BenchDatabase(label, postgresql, admin, pool, dialect);
        } catch (SQLException | RuntimeException e) {
            pool.close();
            admin.close();
            throw e;
        }
    }

    private static HikariDataSource pool(TestDatabase server, String schema, String name, int size,
                                         boolean autoCommit) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("bench-" + name + "-" + server.name() + (schema == null ? "" : "-" + schema));
        config.setJdbcUrl(server.jdbcUrl());
        config.setUsername(server.user());
        config.setPassword(server.password());
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(size);
        config.setAutoCommit(autoCommit);
        config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        if (server.name().equals("mysql")) {
            // Connector/J's statement cache, as README recommends ("The DataSource").
            config.addDataSourceProperty("cachePrepStmts", "true");
            config.addDataSourceProperty("prepStmtCacheSqlLimit", "2048");
            config.addDataSourceProperty("prepStmtCacheSize", "250");
        }
        if (schema != null && server.name().equals("postgresql")) {
            // In the start-up packet: Hikari's setSchema would leave an open transaction behind
            // (a SET issued with auto-commit off), which a later setTransactionIsolation refuses.
            config.addDataSourceProperty("currentSchema", schema);
        } else if (schema != null) {
            config.setCatalog(schema);
        }
        return new HikariDataSource(config);
    }

    /** Returns {@code postgresql} or {@code mysql}, with {@code /schema} for a non-default one. */
    String label() {
        return label;
    }

    /** Returns {@code "PG"} or {@code "MySQL"}, for summaries. */
    String shortName() {
        return postgresql ? "PG" : "MySQL";
    }

    boolean isPostgresql() {
        return postgresql;
    }

    /** The measuring pool: auto-commit off, READ COMMITTED, at most 8 connections. */
    DataSource pool() {
        return pool;
    }

    /** The library's dialect for this database. */
    SqlDialect dialect() {
        return dialect;
    }

    /** Empties the outbox and business tables. */
    void truncate() throws SQLException {
        try (Connection connection = admin.getConnection();
             Statement statement = connection.createStatement()) {
            if (postgresql) {
                statement.execute("TRUNCATE TABLE outbox, outbox_attempt, outbox_key_sequence, bench_order");
            } else {
                // MySQL refuses to truncate a table that a foreign key refers to, even an empty one's.
                statement.execute("TRUNCATE TABLE outbox_attempt");
                statement.execute("SET FOREIGN_KEY_CHECKS = 0");
                try {
                    statement.execute("TRUNCATE TABLE outbox");
                } finally {
                    statement.execute("SET FOREIGN_KEY_CHECKS = 1");
                }
                statement.execute("TRUNCATE TABLE bench_order");
                statement.execute("TRUNCATE TABLE outbox_key_sequence");
            }
        }
    }

    /** Drops the outbox's tables (with those that refer to it). */
    void dropOutboxTables() throws SQLException {
        execute(DROP_OUTBOX_TABLES);
    }

    /** Refreshes the planner's statistics of the outbox table. */
    void analyze() throws SQLException {
        execute(postgresql ? "ANALYZE outbox" : "ANALYZE TABLE outbox");
    }

    /**
     * The set-up of a drain round: empties the table, inserts {@code count} due rows of the given
     * delivery ({@link #seedPending}) and refreshes the statistics.
     */
    Runner.Task seeding(int count, String deliveryType, String metadataJson) {
        return () -> {
            truncate();
            seedPending(count, deliveryType, metadataJson);
            analyze();
        };
    }

    /**
     * Inserts {@code count} PENDING rows, one microsecond apart, the last due a millisecond ago:
     * as if published just now. (Rows due long ago would look to a processor like entries of a
     * transaction that committed long after writing them, which its claims find only in their
     * scans from the oldest, {@code ProcessorSettings.fullScanInterval}.)
     */
    void seedPending(int count, String deliveryType, String metadataJson) throws SQLException {
        seed(count, deliveryType, metadataJson, false, Instant.now().minusNanos((count + 1_000L) * 1_000L));
    }

    /**
     * Inserts {@code count} rows that were PENDING and were then delivered, due and delivered two
     * minutes ago, one microsecond apart: on PostgreSQL each leaves a dead entry in the claim
     * index until VACUUM, as a burst of deliveries does.
     */
    void seedRecentlyDelivered(int count, String deliveryType, String metadataJson) throws SQLException {
        seed(count, deliveryType, metadataJson, false, Instant.now().minus(Duration.ofMinutes(2)));
        execute("UPDATE outbox SET status = 'DELIVERED', attempts = 1, delivered_at = next_attempt_at "
                + "WHERE status = 'PENDING'");
    }

    /**
     * Spreads the PENDING rows over {@code keys} ordering keys ({@link #assignOrderingKeysToPending}),
     * then on PostgreSQL vacuums the update's dead row versions away, so that the keyed table is no
     * larger than an unkeyed one.
     */
    void assignOrderingKeys(int keys) throws SQLException {
        assignOrderingKeysToPending(keys);
        if (postgresql) {
            execute("VACUUM outbox");
        }
    }

    /**
     * Spreads the PENDING rows over {@code keys} ordering keys, round robin in id order: row n
     * (from 0) gets key {@code "key-" + n % keys} and sequence {@code n / keys + 1}, so each key's
     * sequence follows its rows' due times, as publishing would have made it. Leaves the other
     * rows, and on PostgreSQL every dead row version, as they are.
     */
    void assignOrderingKeysToPending(int keys) throws SQLException {
        execute(postgresql ? """
                UPDATE outbox o SET ordering_key = 'key-' || (s.n %% %1$d), ordering_seq = s.n / %1$d + 1
                FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM outbox WHERE status = 'PENDING') s
                WHERE o.id = s.id""".formatted(keys) : """
                UPDATE outbox o JOIN (SELECT id, ROW_NUMBER() OVER (ORDER BY id) - 1 AS n FROM outbox
                                      WHERE status = 'PENDING') s ON o.id = s.id
                SET o.ordering_key = CONCAT('key-', s.n %% %1$d), o.ordering_seq = FLOOR(s.n / %1$d) + 1"""
                .formatted(keys));
    }

    /** Inserts {@code count} DELIVERED rows, delivered two days ago, one microsecond apart. */
    void seedDelivered(int count, String deliveryType, String metadataJson) throws SQLException {
        seed(count, deliveryType, metadataJson, true, Instant.now().minus(Duration.ofDays(2)));
    }

    private void seed(int count, String deliveryType, String metadataJson, boolean delivered, Instant base)
            throws SQLException {
        try (Connection connection = admin.getConnection()) {
            if (!postgresql) {
                try (Statement statement = connection.createStatement()) {
                    // MariaDB names MySQL's cte_max_recursion_depth otherwise.
                    statement.execute("SET SESSION " + (dialect.name().equals("mariadb") ? "max_recursive_iterations"
                            : "cte_max_recursion_depth") + " = " + (SEED_CHUNK + 1));
                }
            }
            for (int done = 0; done < count; done += SEED_CHUNK) {
                int rows = Math.min(SEED_CHUNK, count - done);
                Instant chunkBase = base.plusNanos(done * 1000L);
                try (PreparedStatement statement = connection.prepareStatement(postgresql ? PG_SEED : MYSQL_SEED)) {
                    int i = 1;
                    if (!postgresql) {
                        statement.setInt(i++, rows);
                    }
                    statement.setLong(i++, ID_PREFIX.incrementAndGet());
                    statement.setString(i++, PAYLOAD);
                    statement.setString(i++, deliveryType);
                    statement.setString(i++, metadataJson);
                    statement.setString(i++, delivered ? "DELIVERED" : "PENDING");
                    statement.setInt(i++, delivered ? 1 : 0);
                    statement.setBoolean(i++, delivered);
                    if (postgresql) {
                        statement.setObject(i++, chunkBase.atOffset(ZoneOffset.UTC));
                        statement.setInt(i, rows);
                    } else {
                        statement.setObject(i, LocalDateTime.ofInstant(chunkBase, ZoneOffset.UTC));
                    }
                    int inserted = statement.executeUpdate();
                    if (inserted != rows) {
                        throw new IllegalStateException("Seeded " + inserted + " rows instead of " + rows);
                    }
                }
            }
        }
    }

    /** Returns the number of PENDING rows. */
    long countPending() throws SQLException {
        try (Connection connection = admin.getConnection();
             Statement statement = connection.createStatement();
             ResultSet resultSet = statement.executeQuery("SELECT COUNT(*) FROM outbox WHERE status = 'PENDING'")) {
            resultSet.next();
            return resultSet.getLong(1);
        }
    }

    /**
     * Returns MySQL's server-wide statement counters ({@code SHOW GLOBAL STATUS}: {@code Questions}
     * and the {@code Com_*} of the statements a drain sends).
     */
    Map<String, Long> mysqlStatementCounts() throws SQLException {
        Map<String, Long> counts = new TreeMap<>();
        try (Connection connection = admin.getConnection();
             Statement statement = connection.createStatement();
             ResultSet resultSet = statement.executeQuery("SHOW GLOBAL STATUS WHERE Variable_name IN ("
                     + "'Questions', 'Com_select', 'Com_update', 'Com_commit', 'Com_rollback', 'Com_set_option')")) {
            while (resultSet.next()) {
                counts.put(resultSet.getString(1), resultSet.getLong(2));
            }
        }
        return counts;
    }

    /**
     * MySQL and MariaDB: waits until {@code since} is two minutes past, as the scale benchmark's
     * rows "delivered two minutes ago" say: InnoDB's purge removes the index entries that an
     * update of a million rows leaves, and needs tens of seconds of both cores for it (its history
     * list counts transactions, not rows, so it cannot tell when that work is done); PostgreSQL,
     * whose dead entries stay until VACUUM: returns at once. Returns the time waited.
     */
    Duration awaitPurge(long since) throws InterruptedException {
        if (postgresql) {
            return Duration.ZERO;
        }
        long waitNanos = Duration.ofMinutes(2).toNanos() - (System.nanoTime() - since);
        if (waitNanos > 0) {
            Thread.sleep(waitNanos / 1_000_000L);
        }
        return Duration.ofNanos(Math.max(waitNanos, 0));
    }

    /** PostgreSQL: the dead rows of the outbox table and the size of its claim index, as text. */
    String claimIndexReport() throws SQLException {
        try (Connection connection = admin.getConnection();
             Statement statement = connection.createStatement();
             ResultSet resultSet = statement.executeQuery("SELECT n_live_tup, n_dead_tup, "
                     + "pg_relation_size(to_regclass('outbox_claim_idx')) FROM pg_stat_user_tables "
                     + "WHERE relid = to_regclass('outbox')")) {
            resultSet.next();
            return String.format(Locale.ROOT, "%,d live rows, %,d dead rows, claim index %,d kB",
                    resultSet.getLong(1), resultSet.getLong(2), resultSet.getLong(3) / 1024);
        }
    }

    /** Runs one statement on the admin pool (auto-commit). */
    void execute(String sql) throws SQLException {
        try (Connection connection = admin.getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /** Checks that a drain left nothing pending: a harness error otherwise. */
    void requireDrained(String what) throws SQLException {
        long pending = countPending();
        if (pending != 0) {
            throw new IllegalStateException(what + " left " + pending + " rows PENDING on " + label
                    + "; the most frequent error: " + mostFrequentError());
        }
    }

    /** The commonest {@code last_error} among the rows, with its count; {@code "none"} if no row has one. */
    private String mostFrequentError() throws SQLException {
        try (Connection connection = admin.getConnection();
             Statement statement = connection.createStatement();
             ResultSet resultSet = statement.executeQuery("SELECT last_error, COUNT(*) FROM outbox "
                     + "WHERE last_error IS NOT NULL GROUP BY last_error ORDER BY COUNT(*) DESC LIMIT 1")) {
            return resultSet.next() ? resultSet.getString(1) + " (" + resultSet.getLong(2) + " rows)" : "none";
        }
    }

    @Override
    public void close() {
        pool.close();
        admin.close();
    }
}
