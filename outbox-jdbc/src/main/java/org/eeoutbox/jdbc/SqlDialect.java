package org.eeoutbox.jdbc;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.eeoutbox.spi.HeadFailurePolicy;

/**
 * What differs between the supported databases: the SQL of each store operation, and how ids,
 * instants and sets of values are bound and read. Each subclass explains its quirks where they
 * are.
 *
 * <p>Supported: PostgreSQL 12 or later ({@link PostgreSqlDialect}), MySQL 8.0 or later
 * ({@link MySqlDialect}) and MariaDB 10.11 or later through MariaDB Connector/J
 * ({@link MariaDbDialect}). Instances are immutable and thread-safe.
 */
public abstract sealed class SqlDialect permits PostgreSqlDialect, MySqlDialect {

    private static final Logger LOG = System.getLogger(SqlDialect.class.getName());

    private static final long MICROS_PER_SECOND = 1_000_000L;

    private static final String SUPPORTED = "Supported: PostgreSQL 12 or later, MySQL 8.0 or later, MariaDB "
            + MariaDbDialect.MIN_MAJOR + "." + MariaDbDialect.MIN_MINOR + " or later (through MariaDB Connector/J).";

    /**
     * Picks the dialect of the database behind {@code connection}, from its product name and
     * version, and logs the choice.
     *
     * @throws IllegalStateException naming the server, its version and what is supported, for any
     *                               other database or an older version, and for MariaDB reached
     *                               through MySQL Connector/J (which reports it as MySQL)
     * @throws SQLException          if the metadata cannot be read
     */
    public static SqlDialect detect(Connection connection) throws SQLException {
        DatabaseMetaData metaData = connection.getMetaData();
        String product = metaData.getDatabaseProductName();
        String version = metaData.getDatabaseProductVersion();
        SqlDialect dialect = choose(product, version,
                metaData.getDatabaseMajorVersion(), metaData.getDatabaseMinorVersion());
        LOG.log(Level.INFO, "Outbox uses the {0} dialect for {1} {2}", dialect.name(), product, version);
        return dialect;
    }

    /**
     * Picks the dialect for a product name and version as the driver reports them.
     *
     * @throws IllegalStateException as {@link #detect} does
     */
    static SqlDialect choose(String product, String version, int major, int minor) {
        String lowerProduct = product.toLowerCase(Locale.ROOT);
        // MariaDB Connector/J names the product MariaDB; MySQL Connector/J calls MariaDB MySQL and
        // only the version (5.5.5-10.11.6-MariaDB, 11.4.5-MariaDB) tells.
        boolean viaMariaDbDriver = lowerProduct.equals("mariadb");
        boolean mariadb = viaMariaDbDriver || version.toLowerCase(Locale.ROOT).contains("mariadb");
        if (mariadb && !viaMariaDbDriver) {
            throw new IllegalStateException("MariaDB " + version + " is reached through MySQL Connector/J, which "
                    + "the outbox does not support with MariaDB (on 10.11 it drops the fractional seconds of "
                    + "DATETIME(6) parameters). Use MariaDB Connector/J (org.mariadb.jdbc:mariadb-java-client, "
                    + "jdbc:mariadb:// URLs). " + SUPPORTED);
        }
        if (mariadb && (major > MariaDbDialect.MIN_MAJOR
                || major == MariaDbDialect.MIN_MAJOR && minor >= MariaDbDialect.MIN_MINOR)) {
            return new MariaDbDialect();
        }
        if (lowerProduct.contains("postgresql") && major >= 12) {
            return new PostgreSqlDialect();
        }
        if (!mariadb && lowerProduct.equals("mysql") && major >= 8) {
            return new MySqlDialect();
        }
        throw new IllegalStateException("Unsupported database for the outbox: " + product + " " + version + ". "
                + SUPPORTED);
    }

    /** Returns a short name, {@code "postgresql"}, {@code "mysql"} or {@code "mariadb"}: the migrations' folder. */
    public abstract String name();

    /**
     * Returns the classpath location of this database's migration to schema {@code version}.
     *
     * @throws IllegalArgumentException if there is no such version
     */
    public String migrationResource(int version) {
        return "org/eeoutbox/jdbc/schema/" + name() + "/" + OutboxSchema.migrationFile(version);
    }

    /**
     * Runs {@code work} holding this database's lock for schema changes, which serializes the
     * migrations of instances that start together. Called on a connection in auto-commit mode;
     * leaves it so. Where the database's DDL is transactional, {@code work} runs in one
     * transaction, committed when it returns and rolled back when it throws.
     *
     * @throws SQLException what {@code work} threw, or if the lock cannot be had
     */
    abstract <T> T withSchemaLock(Connection connection, ConnectionProvider.SqlFunction<T> work) throws SQLException;

    /** Binds an id. */
    abstract void setId(PreparedStatement statement, int index, UUID id) throws SQLException;

    /** Reads an id. */
    abstract UUID getId(ResultSet resultSet, int index) throws SQLException;

    /** Binds an instant, UTC whatever the session's or the JVM's time zone. */
    abstract void setInstant(PreparedStatement statement, int index, Instant instant) throws SQLException;

    /**
     * Returns an SQL expression of type bigint: the instant held by {@code column} (a column or a
     * scalar subquery) as microseconds since the epoch, {@code NULL} for {@code NULL}. Instants
     * are read through it and {@link #getInstant}: an integer costs the driver far less to decode
     * than a timestamp's text, in every row a claim reads.
     */
    abstract String epochMicros(String column);

    /** Reads an instant selected as {@link #epochMicros}, or {@code null}. */
    static Instant getInstant(ResultSet resultSet, int index) throws SQLException {
        long micros = resultSet.getLong(index);
        if (resultSet.wasNull()) {
            return null;
        }
        return Instant.ofEpochSecond(Math.floorDiv(micros, MICROS_PER_SECOND),
                Math.floorMod(micros, MICROS_PER_SECOND) * 1_000L);
    }

    /**
     * The columns a claim reads, in the order {@link JdbcOutboxStore} maps them: id, message
     * type, payload, delivery type, metadata, deduplication key, attempts, next attempt, created,
     * updated, last error, last attempt, ordering key, ordering sequence, traceparent, tracestate.
     * Not the status and the
     * delivery time, which the claim's {@code status = 'PENDING'} fixes (a pending entry was never
     * delivered).
     */
    final String claimColumns() {
        return "id, message_type, payload, delivery_type, delivery_metadata, deduplication_key, attempts, "
                + epochMicros("next_attempt_at") + ", " + epochMicros("created_at") + ", "
                + epochMicros("updated_at") + ", last_error, " + epochMicros("last_attempt_at")
                + ", ordering_key, ordering_seq, trace_parent, trace_state";
    }

    /** The columns of a whole entry: {@link #claimColumns()}, then status and delivery time. */
    final String entryColumns() {
        return claimColumns() + ", status, " + epochMicros("delivered_at");
    }

    /**
     * The insert. Parameters: id, message type, payload, delivery type, metadata, deduplication
     * key, status, next attempt, created, updated, traceparent, tracestate, delivered (null unless
     * the entry is delivered at publish). A duplicate deduplication key writes nothing and never
     * aborts the transaction.
     */
    abstract String insertSql();

    /**
     * The insert of an entry with an ordering key, run after {@link #takeOrderingSeqSql()} in the
     * same transaction. Parameters: the ordering key, then those of {@link #insertSql()}. Behaves
     * as {@link #insertSql()} on a duplicate deduplication key.
     */
    abstract String insertOrderedSql();

    /**
     * The statement that takes the next sequence number of an ordering key for
     * {@link #insertOrderedSql()}, creating the key's row at 1 or incrementing it, and so locking
     * it until the transaction ends: the lock serializes the transactions publishing to one key,
     * and only those. Parameter: the ordering key. {@code null} where {@link #insertOrderedSql()}
     * takes the number itself.
     */
    abstract String takeOrderingSeqSql();

    /**
     * Returns a boolean SQL expression on the claim's {@code outbox} row: whether it may be
     * claimed as far as ordering goes. An entry without an ordering key may; an entry with one
     * only if no entry of its key with a smaller sequence still holds the key: {@code PENDING}
     * (in flight or waiting), or {@code FAILED} under {@link HeadFailurePolicy#BLOCK}. The
     * subquery is a plain read: a locking claim neither locks nor skips its rows (tested on each
     * database), so a head claimed by another transaction still holds its key. Under
     * {@code OR}, it is evaluated only for keyed rows and never turned into a join, so the claim
     * of unkeyed entries keeps its plan.
     */
    String isKeyHead(HeadFailurePolicy policy) {
        return "(ordering_key IS NULL OR " + noEarlierEntry("outbox earlier", "earlier.status IN ("
                + String.join(", ", blockingStatuses(policy)) + ")") + ")";
    }

    /**
     * Returns {@link #isKeyHead} as a locking claim must test it. The default is {@link #isKeyHead}
     * itself: on PostgreSQL a locking read sees only the rows of its statement's snapshot, the one
     * the head check reads, and its recheck of a row updated since follows only rows in it.
     */
    String isClaimableKeyHead(HeadFailurePolicy policy) {
        return isKeyHead(policy);
    }

    /** The statuses of an earlier entry that hold its key up under {@code policy}, as SQL literals. */
    static List<String> blockingStatuses(HeadFailurePolicy policy) {
        return policy == HeadFailurePolicy.BLOCK ? List.of("'PENDING'", "'FAILED'") : List.of("'PENDING'");
    }

    /**
     * Returns a boolean SQL expression: whether no entry of the claim's row's key with a smaller
     * sequence meets {@code statusCondition} (on {@code earlier.status}).
     *
     * @param earlier the subquery's table, {@code outbox} named {@code earlier}, with any index hint
     */
    static String noEarlierEntry(String earlier, String statusCondition) {
        return """
                NOT EXISTS (SELECT 1 FROM %s
                            WHERE earlier.ordering_key = outbox.ordering_key AND %s
                              AND earlier.ordering_seq < outbox.ordering_seq)""".formatted(earlier, statusCondition);
    }

    /**
     * Returns a boolean SQL expression: whether the JSON in {@code column} equals the JSON text
     * of the one parameter it holds, compared as JSON values (key order and white space do not
     * matter).
     */
    abstract String sameMetadata(String column);

    /** Whether an update count of 1 from {@link #insertSql()} proves the row was inserted. */
    abstract boolean insertCountProvesInsert();

    /**
     * The WHERE of a claim, shared by both claim modes: {@code PENDING}, due, of one of
     * {@code typeCount} delivery types not in {@code outbox_pause}, not under a lease that has not
     * expired, and, for an entry with an ordering key, its key's head under {@code policy}
     * ({@link #isKeyHead}). Parameters: with {@code fromDueTime}, where the scan starts (an entry
     * due earlier is left out); now; then the delivery types (bound by {@link #bindStrings}).
     *
     * <p>A scan from the oldest entry has no lower bound at all, rather than a bound earlier than
     * every entry: PostgreSQL's generic plan guesses the two bounds of a range at half a percent of
     * the rows, and on a backlog of more than a few thousand entries that plan costs more than the
     * plans made for each claim's parameters, so the server plans every claim anew (BENCHMARKS.md,
     * "History stays flat"). A claim from a due time needs both bounds, and its prelude makes the
     * server keep the generic plan anyway ({@link #claimFromDueTimePrelude}).
     */
    final String claimablePredicate(int typeCount, HeadFailurePolicy policy, boolean fromDueTime) {
        return "status = 'PENDING' AND " + (fromDueTime ? "next_attempt_at >= ? AND " : "")
                + "next_attempt_at <= ? AND " + in("delivery_type", typeCount)
                + "\n  AND delivery_type NOT IN (SELECT delivery_type FROM outbox_pause)\n  AND " + notLeased()
                + "\n  AND " + isClaimableKeyHead(policy);
    }

    /**
     * Returns a boolean SQL expression: the row is under no lease, or one that has expired, on the
     * database's clock. A completed lease leaves {@code lease_expires_at} {@code NULL}, so rows that
     * were never leased pass at the cost of a null test.
     */
    final String notLeased() {
        return "(lease_expires_at IS NULL OR lease_expires_at <= " + databaseNow() + ")";
    }

    /**
     * The claim of the rows matching {@link #claimablePredicate}, oldest due first, locked and
     * skipping locked rows. Parameters: those of the predicate.
     *
     * @param columns what to read: {@link #claimColumns()}, in lease mode followed by
     *                {@code lease_token}
     * @param policy  which statuses of an earlier entry hold up an ordering key
     * @param fromDueTime whether the claim starts from a due time, bound as its first parameter,
     *                rather than from the oldest entry
     * @param limit   the most rows to claim, written into the statement rather than bound: a
     *                processor always claims its batch size, so the text stays the same, and
     *                PostgreSQL can then run one cached generic plan. With {@code LIMIT ?} its
     *                generic plan assumes a tenth of the rows, costs more than any custom plan, and
     *                every claim is planned anew (a quarter of a 10-row batch's time on the database,
     *                BENCHMARKS.md "the claim planned once"); {@code > 0}
     */
    final String claimSql(int typeCount, String columns, HeadFailurePolicy policy, boolean fromDueTime, int limit) {
        return (fromDueTime ? claimFromDueTimePrelude() : "") + """
                SELECT %s
                FROM %s
                WHERE %s
                ORDER BY next_attempt_at, id
                LIMIT %d
                FOR UPDATE SKIP LOCKED""".formatted(columns, claimTable(),
                claimablePredicate(typeCount, policy, fromDueTime), limit);
    }

    /**
     * What a claim from a due time sends before its {@code SELECT}, in the same round trip: a
     * statement ending in {@code ;} whose setting ends with the transaction, or {@code ""} (the
     * default) for nothing.
     */
    String claimFromDueTimePrelude() {
        return "";
    }

    /**
     * The table expression the claim names: {@code outbox}, with the hint that keeps the scan on
     * {@code outbox_claim_idx} where the database needs one.
     */
    abstract String claimTable();

    /**
     * Returns an SQL expression: the database's current time, in the type of the schema's
     * instants (never the JVM's clock, so that a lease means the same on every instance).
     */
    abstract String databaseNow();

    /**
     * Returns an SQL expression: the database's current time plus the microseconds bound to its
     * one parameter.
     */
    abstract String databaseNowPlusMicros();

    /**
     * Stamps a lease on claimed rows: owner, the next fencing token, the expiry, one more attempt.
     * Parameters: owner, the lease's length in microseconds, then the ids (bound by
     * {@link #bindIds}).
     */
    final String stampLeaseSql(int idCount) {
        return "UPDATE outbox SET lease_owner = ?, lease_token = lease_token + 1, lease_expires_at = "
                + databaseNowPlusMicros() + ", attempts = attempts + 1 WHERE " + in("id", idCount);
    }

    /**
     * The set-based update of delivered entries, which also clears {@code last_error} and any
     * lease. Parameters: updated, delivered, last attempt, then the ids (bound by {@link #bindIds}).
     *
     * @param attemptCounted whether the claim counted the attempt already (lease mode); if not,
     *                       this update counts it
     */
    final String markDeliveredSql(int idCount, boolean attemptCounted) {
        return "UPDATE outbox SET status = 'DELIVERED', " + (attemptCounted ? "" : "attempts = attempts + 1, ")
                + "updated_at = ?, delivered_at = ?, last_attempt_at = ?, last_error = NULL, lease_owner = NULL, "
                + "lease_expires_at = NULL WHERE " + in("id", idCount);
    }

    /** Binds a set of strings starting at {@code index}; returns the next free index. */
    abstract int bindStrings(PreparedStatement statement, int index, Collection<String> values) throws SQLException;

    /** Binds a set of ids starting at {@code index}; returns the next free index. */
    abstract int bindIds(PreparedStatement statement, int index, Collection<UUID> ids) throws SQLException;

    /**
     * Returns a boolean SQL expression: whether {@code column} holds one of the {@code count}
     * values bound by {@link #bindStrings} or {@link #bindIds}.
     */
    abstract String in(String column, int count);

    /**
     * Deletes up to {@code limit} entries for which {@code condition} holds, smallest
     * {@code orderColumn} first, skipping rows other transactions hold (never waiting for them);
     * their failure history goes with them ({@code ON DELETE CASCADE}).
     *
     * @param index     the index that serves {@code condition} and {@code orderColumn}
     * @param condition  a boolean SQL expression on {@code outbox} whose parameters are {@code parameters}
     * @param parameters the values of the condition's parameters: instants and strings
     * @return the number deleted
     */
    abstract int purge(Connection connection, String index, String condition, String orderColumn,
                       List<?> parameters, int limit) throws SQLException;

    /** Binds the parameters of a {@link #purge} condition from index 1; returns the next index. */
    final int bindPurge(PreparedStatement statement, List<?> parameters) throws SQLException {
        int next = 1;
        for (Object parameter : parameters) {
            if (parameter instanceof Instant instant) {
                setInstant(statement, next++, instant);
            } else {
                statement.setString(next++, (String) parameter);
            }
        }
        return next;
    }

    /**
     * The insert of a pause that writes nothing, and counts 0, when the type is paused already.
     * Parameters: delivery type, paused at, paused by.
     */
    abstract String pauseSql();

    /**
     * The table expression a feed read names: {@code outbox}, with the hint that makes it use the
     * index serving a channel's events by cursor where the database needs one.
     */
    abstract String feedTable();

    /**
     * Reads the schema marker: the table's comment, {@code ""} for a table without one, or
     * {@code null} when there is no outbox table.
     */
    abstract String readTableComment(Connection connection) throws SQLException;

    /**
     * Checks server settings the outbox depends on; the default checks nothing.
     *
     * @throws IllegalStateException naming the setting, its value and the fix
     */
    void verifyServerSettings(Connection connection) throws SQLException {
    }
}
