package org.eeoutbox.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.eeoutbox.spi.FeedEvent;
import org.eeoutbox.spi.FeedStore;

/**
 * The {@link FeedStore} on plain JDBC, for PostgreSQL, MySQL and MariaDB. A channel's events are
 * read by cursor through an index: {@code outbox_feed_idx} on PostgreSQL,
 * {@code outbox_ordering_idx} on MySQL and MariaDB ({@link SqlDialect#feedTable()}). Thread-safe.
 */
public final class JdbcFeedStore implements FeedStore {

    private final ConnectionProvider connections;
    private final SqlDialect dialect;
    private final String readSql;
    private final String oldestSql;
    private final String headSql;

    public JdbcFeedStore(ConnectionProvider connections, SqlDialect dialect) {
        this.connections = Objects.requireNonNull(connections, "connections");
        this.dialect = Objects.requireNonNull(dialect, "dialect");
        // status = 'DELIVERED' always holds for a feed's rows; MySQL's index needs it as an equality.
        this.readSql = """
                SELECT ordering_seq, id, message_type, payload
                FROM %s
                WHERE ordering_key = ? AND status = 'DELIVERED' AND ordering_seq > ? AND delivery_type = 'feed'
                ORDER BY ordering_seq
                LIMIT ?""".formatted(dialect.feedTable());
        // The channel's oldest retained event, and the last number its sequence gave out.
        this.oldestSql = """
                SELECT (SELECT MIN(ordering_seq)
                        FROM %s
                        WHERE ordering_key = ? AND status = 'DELIVERED' AND delivery_type = 'feed'),
                       (SELECT last_seq FROM outbox_key_sequence WHERE ordering_key = ?)""".formatted(dialect.feedTable());
        this.headSql = """
                SELECT COALESCE(MAX(ordering_seq), 0)
                FROM %s
                WHERE ordering_key = ? AND status = 'DELIVERED' AND delivery_type = 'feed'""".formatted(dialect.feedTable());
    }

    /** The read's SQL, for the plan check. Parameters: channel, cursor, limit. */
    String readSql() {
        return readSql;
    }

    @Override
    public long head(String channel) {
        Objects.requireNonNull(channel, "channel");
        return StoreCalls.run(connections, "read the head of feed channel '" + channel + "'", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(headSql)) {
                statement.setString(1, channel);
                try (ResultSet resultSet = statement.executeQuery()) {
                    resultSet.next();
                    return resultSet.getLong(1);
                }
            }
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>A read whose events are not consecutive from {@code afterSeq + 1} is read again, and only
     * the events up to the last one the first read returned are kept. On MariaDB a statement's
     * snapshot is not taken atomically (InnoDB copies the active transactions from a lock-free hash
     * while others commit), so it can show a channel's event {@code n + 1} without {@code n}, which
     * had committed first: a cursor moved past {@code n} would never see it. Whatever a snapshot
     * shows had committed before the next statement starts, and {@code n} committed before
     * {@code n + 1}, so the second read holds every committed event up to the first read's last.
     * A real gap (purged events) costs the second read only.
     */
    @Override
    public List<FeedEvent> read(String channel, long afterSeq, int limit) {
        Objects.requireNonNull(channel, "channel");
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, got: " + limit);
        }
        List<FeedEvent> events = query(channel, afterSeq, limit);
        if (consecutive(events, afterSeq)) {
            return events;
        }
        long lastSeen = events.get(events.size() - 1).seq();
        return query(channel, afterSeq, limit).stream().takeWhile(event -> event.seq() <= lastSeen).toList();
    }

    private static boolean consecutive(List<FeedEvent> events, long afterSeq) {
        long expected = afterSeq + 1;
        for (FeedEvent event : events) {
            if (event.seq() != expected++) {
                return false;
            }
        }
        return true;
    }

    private List<FeedEvent> query(String channel, long afterSeq, int limit) {
        return StoreCalls.run(connections, "read feed channel '" + channel + "' after " + afterSeq, connection -> {
            try (PreparedStatement statement = connection.prepareStatement(readSql)) {
                statement.setString(1, channel);
                statement.setLong(2, afterSeq);
                statement.setInt(3, limit);
                try (ResultSet resultSet = statement.executeQuery()) {
                    List<FeedEvent> events = new ArrayList<>(Math.min(limit, 1000));
                    while (resultSet.next()) {
                        events.add(new FeedEvent(resultSet.getLong(1), dialect.getId(resultSet, 2),
                                resultSet.getString(3), resultSet.getString(4)));
                    }
                    return events;
                }
            }
        });
    }

    @Override
    public boolean expired(String channel, long afterSeq) {
        Objects.requireNonNull(channel, "channel");
        return StoreCalls.run(connections, "check the cursor " + afterSeq + " of feed channel '" + channel + "'",
                connection -> {
                    try (PreparedStatement statement = connection.prepareStatement(oldestSql)) {
                        statement.setString(1, channel);
                        statement.setString(2, channel);
                        try (ResultSet resultSet = statement.executeQuery()) {
                            resultSet.next();
                            long oldest = resultSet.getLong(1);
                            if (!resultSet.wasNull()) {
                                return oldest > afterSeq + 1;
                            }
                            long last = resultSet.getLong(2);
                            // No event retained: expired if the channel had events after the cursor.
                            return !resultSet.wasNull() && last > afterSeq;
                        }
                    }
                });
    }
}
