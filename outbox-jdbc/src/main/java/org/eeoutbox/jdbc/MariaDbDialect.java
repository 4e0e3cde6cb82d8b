package org.eeoutbox.jdbc;

/**
 * MariaDB 10.11 or later, through MariaDB Connector/J ({@code org.mariadb.jdbc:mariadb-java-client}):
 * MySQL's SQL and schema, with these differences.
 *
 * <ul>
 *   <li>{@code JSON} is an alias of {@code LONGTEXT} checked by {@code JSON_VALID}: the text is kept
 *       as written, not normalised, so metadata is compared with {@code JSON_EQUALS} (10.7 or
 *       later).</li>
 *   <li>{@code FOR UPDATE SKIP LOCKED} exists from 10.6; 10.6 lacks {@code JSON_EQUALS} and is
 *       end of life, so 10.11, the oldest maintained long-term release, is the minimum.</li>
 * </ul>
 *
 * <p>The migrations are those of MySQL under this dialect's own name, so that Flyway or Liquibase
 * users point at one folder per database and a later migration may differ.
 */
public final class MariaDbDialect extends MySqlDialect {

    /** The oldest supported MariaDB release, as major and minor version. */
    static final int MIN_MAJOR = 10;
    static final int MIN_MINOR = 11;

    MariaDbDialect() {
    }

    @Override
    public String name() {
        return "mariadb";
    }

    @Override
    String sameMetadata(String column) {
        // MySQL's CAST(? AS JSON) does not exist; JSON_EQUALS ignores key order and white space.
        return "(JSON_EQUALS(" + column + ", ?) = 1)";
    }
}
