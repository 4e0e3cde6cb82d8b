package org.eeoutbox.jta;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * A DataSource without a database: it lends connection handles that only know {@code close} and
 * {@code isClosed}, and counts what was lent and closed. {@link #failWith} makes
 * {@code getConnection} throw instead, as a pool that is exhausted or down.
 */
final class CountingDataSource {

    final List<Connection> lent = new ArrayList<>();
    private int closed;
    private SQLException failure;

    final DataSource dataSource = (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                if (!method.getName().equals("getConnection") || method.getParameterCount() != 0) {
                    throw new UnsupportedOperationException(method.toString());
                }
                if (failure != null) {
                    throw failure;
                }
                Connection connection = connection();
                lent.add(connection);
                return connection;
            });

    void failWith(SQLException e) {
        failure = e;
    }

    /** Connections lent and not closed yet. */
    int open() {
        return lent.size() - closed;
    }

    private Connection connection() {
        boolean[] isClosed = {false};
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "close" -> {
                        if (!isClosed[0]) {
                            isClosed[0] = true;
                            closed++;
                        }
                        yield null;
                    }
                    case "isClosed" -> isClosed[0];
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "toString" -> "connection " + lent.indexOf(proxy);
                    default -> throw new UnsupportedOperationException(method.toString());
                });
    }
}
