package org.eeoutbox.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;

/** Maps the current row of a result set. */
@FunctionalInterface
interface RowMapper<T> {
    T map(ResultSet resultSet) throws SQLException;
}
