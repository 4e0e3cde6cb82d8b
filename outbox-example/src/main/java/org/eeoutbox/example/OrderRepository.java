package org.eeoutbox.example;

import jakarta.annotation.Resource;
import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The orders table, on plain JDBC through the application's DataSource, the same one the outbox
 * writes through: inside a JTA transaction both use the same enlisted connection, so the order row
 * and its outbox entries commit together.
 *
 * <p>The DataSource is defined here. As README.md requires, it is transactional and READ
 * COMMITTED. Its settings come from MicroProfile Config keys {@code orders.db.*}, which a server
 * resolves in {@code @DataSourceDefinition} from system properties or environment variables
 * ({@code ORDERS_DB_URL}, ...), not from the application's own
 * {@code microprofile-config.properties}. {@code className} must be the driver's
 * {@code DataSource} class ({@code org.postgresql.ds.PGSimpleDataSource},
 * {@code com.mysql.cj.jdbc.MysqlDataSource}, {@code org.mariadb.jdbc.MariaDbDataSource}), and the
 * password must not be empty (an empty value counts as missing).
 */
@DataSourceDefinition(
        name = OrderRepository.DATASOURCE,
        className = "${MPCONFIG=orders.db.datasource}",
        url = "${MPCONFIG=orders.db.url}",
        user = "${MPCONFIG=orders.db.user}",
        password = "${MPCONFIG=orders.db.password}",
        transactional = true,
        isolationLevel = Connection.TRANSACTION_READ_COMMITTED,
        minPoolSize = 2,
        maxPoolSize = 24)
@ApplicationScoped
public class OrderRepository {

    /** The JNDI name, also {@code outbox.datasource} in microprofile-config.properties. */
    public static final String DATASOURCE = "java:app/jdbc/orders";

    @Resource(lookup = DATASOURCE)
    DataSource dataSource;

    /**
     * Creates the orders table if it is missing. A real service would create it, and the outbox
     * table (the V1 and V2 migrations in outbox-jdbc), with its migration tool.
     */
    public void createTableIfMissing() throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            String product = connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
            boolean mysql = product.contains("mysql") || product.contains("mariadb");
            statement.execute("CREATE TABLE IF NOT EXISTS orders ("
                    + " id VARCHAR(36) NOT NULL PRIMARY KEY,"
                    + " customer VARCHAR(200) NOT NULL,"
                    + " amount DECIMAL(12, 2) NOT NULL,"
                    + " created_at " + (mysql ? "DATETIME(6)" : "TIMESTAMP(6)") + " NOT NULL)");
        }
    }

    /** Inserts the order; joins the caller's transaction. */
    public void insert(Order order) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO orders (id, customer, amount, created_at) VALUES (?, ?, ?, ?)")) {
            insert.setString(1, order.id());
            insert.setString(2, order.customer());
            insert.setBigDecimal(3, order.amount());
            insert.setObject(4, LocalDateTime.ofInstant(order.createdAt(), ZoneOffset.UTC));
            insert.executeUpdate();
        }
    }

    /** Returns the order with this id, if any. */
    public Optional<Order> find(String id) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT id, customer, amount, created_at FROM orders WHERE id = ?")) {
            select.setString(1, id);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Order(row.getString(1), row.getString(2), row.getBigDecimal(3),
                        row.getObject(4, LocalDateTime.class).toInstant(ZoneOffset.UTC)));
            }
        }
    }
}
