package org.eeoutbox.jdbc;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.admin.EntryFilter;

/**
 * An {@link EntryFilter} as an SQL condition on {@code outbox} and the values it binds, in the
 * dialect's syntax. Only the criteria given appear; the text search is
 * {@code POSITION(? IN last_error) > 0}, standard SQL that needs no escaping of {@code %} or
 * {@code _} and is case-sensitive on both databases (MySQL's columns use a binary collation).
 * Immutable.
 */
final class FilterSql {

    @FunctionalInterface
    private interface Binder {
        int bind(PreparedStatement statement, int index) throws SQLException;
    }

    private final String condition;
    private final List<Binder> binders;

    private FilterSql(String condition, List<Binder> binders) {
        this.condition = condition;
        this.binders = binders;
    }

    static FilterSql of(SqlDialect dialect, EntryFilter filter) {
        List<String> conditions = new ArrayList<>();
        List<Binder> binders = new ArrayList<>();
        if (!filter.statuses().isEmpty()) {
            List<String> names = filter.statuses().stream().map(OutboxStatus::name).sorted().toList();
            conditions.add(dialect.in("status", names.size()));
            binders.add((statement, index) -> dialect.bindStrings(statement, index, names));
        }
        text(conditions, binders, "delivery_type = ?", filter.deliveryType());
        text(conditions, binders, "message_type = ?", filter.messageType());
        text(conditions, binders, "POSITION(? IN last_error) > 0", filter.errorContains());
        instant(dialect, conditions, binders, "created_at >= ?", filter.createdFrom());
        instant(dialect, conditions, binders, "created_at < ?", filter.createdTo());
        instant(dialect, conditions, binders, "last_attempt_at >= ?", filter.lastAttemptFrom());
        instant(dialect, conditions, binders, "last_attempt_at < ?", filter.lastAttemptTo());
        return new FilterSql(conditions.isEmpty() ? "1 = 1" : String.join(" AND ", conditions), List.copyOf(binders));
    }

    /** Returns the condition, to be ANDed with others. */
    String condition() {
        return condition;
    }

    /** Binds the condition's values starting at {@code index}; returns the next free index. */
    int bind(PreparedStatement statement, int index) throws SQLException {
        int next = index;
        for (Binder binder : binders) {
            next = binder.bind(statement, next);
        }
        return next;
    }

    private static void text(List<String> conditions, List<Binder> binders, String condition, String value) {
        if (value != null) {
            conditions.add(condition);
            binders.add((statement, index) -> {
                statement.setString(index, value);
                return index + 1;
            });
        }
    }

    private static void instant(SqlDialect dialect, List<String> conditions, List<Binder> binders, String condition,
                                Instant value) {
        if (value != null) {
            conditions.add(condition);
            binders.add((statement, index) -> {
                // MySQL would round nanoseconds; the stored instants have microseconds.
                dialect.setInstant(statement, index, value.truncatedTo(ChronoUnit.MICROS));
                return index + 1;
            });
        }
    }
}
