package org.eeoutbox.jdbc;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.eeoutbox.spi.HeadFailurePolicy;

/**
 * The texts of one store's claims ({@link SqlDialect#claimSql}), each built once: a processor claims
 * with the same delivery types, mode and batch size for its whole life, so building the text on
 * every claim was pure work for the JVM (15 % of the engine's time in a 10-entry drain,
 * BENCHMARKS.md "the claim's text built once").
 *
 * <p>Holds at most {@value #MAX_SHAPES} texts; a claim of any further shape is built each time,
 * so that callers varying the limit cannot grow it without bound. Thread-safe.
 */
final class ClaimStatements {

    private static final int MAX_SHAPES = 64;

    /** What the text of a claim depends on, beyond the store's dialect and head failure policy. */
    private record Shape(int typeCount, boolean leased, boolean fromDueTime, int limit) {
    }

    private final SqlDialect dialect;
    private final HeadFailurePolicy headFailurePolicy;
    private final Map<Shape, String> texts = new ConcurrentHashMap<>();

    ClaimStatements(SqlDialect dialect, HeadFailurePolicy headFailurePolicy) {
        this.dialect = Objects.requireNonNull(dialect, "dialect");
        this.headFailurePolicy = Objects.requireNonNull(headFailurePolicy, "headFailurePolicy");
    }

    /**
     * Returns the claim of {@code limit} entries of {@code typeCount} delivery types reading
     * {@link SqlDialect#claimColumns()}, followed in lease mode by {@code lease_token}; its
     * parameters are those of {@link SqlDialect#claimablePredicate}.
     */
    String claimSql(int typeCount, boolean leased, boolean fromDueTime, int limit) {
        Shape shape = new Shape(typeCount, leased, fromDueTime, limit);
        String text = texts.get(shape);
        if (text == null) {
            text = build(shape);
            if (texts.size() < MAX_SHAPES) {
                texts.putIfAbsent(shape, text);
            }
        }
        return text;
    }

    private String build(Shape shape) {
        String columns = dialect.claimColumns() + (shape.leased() ? ", lease_token" : "");
        return dialect.claimSql(shape.typeCount(), columns, headFailurePolicy, shape.fromDueTime(), shape.limit());
    }
}
