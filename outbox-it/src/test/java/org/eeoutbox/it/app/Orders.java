package org.eeoutbox.it.app;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.eeoutbox.DeliveryInfo;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxPublisher;
import org.eeoutbox.http.HttpDelivery;
import org.eeoutbox.it.support.ItConfig;
import org.eeoutbox.kafka.KafkaDelivery;

/**
 * The business side of the test application, used the way the README tells users: a
 * {@code @Transactional} method writes an order row and publishes through the injected
 * {@link OutboxPublisher}, in one JTA transaction, through one READ COMMITTED DataSource (its
 * {@code @DataSourceDefinition} is on a class that {@link TestApps} adds, compiled for this run).
 */
@ApplicationScoped
public class Orders {

    /** The receiver's service name in the test configuration. */
    public static final String RECEIVER = "receiver";

    @Resource(lookup = ItConfig.DATASOURCE)
    DataSource dataSource;

    @Inject
    OutboxPublisher outbox;

    /** Creates the order table if missing (outside any transaction). */
    public void createTable() throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS it_order (id VARCHAR(64) PRIMARY KEY)");
        }
    }

    /**
     * Saves an order and publishes {@code order.created} for it, in one transaction.
     *
     * @param transport {@code http} (to the receiver at {@code path}) or {@code kafka}
     * @return the outbox entry's id
     */
    @Transactional
    public UUID place(String orderId, String transport, String path) throws SQLException {
        return place(orderId, delivery(transport, path, orderId));
    }

    /** Saves an order and publishes {@code order.created} for it to {@code delivery}, in one transaction. */
    @Transactional
    public UUID place(String orderId, DeliveryInfo delivery) throws SQLException {
        insertOrder(orderId);
        return outbox.publish(new OutboxMessage("order.created", "{\"order\":\"" + orderId + "\"}")
                .withDeduplicationKey(orderId + ":created"), delivery);
    }

    /**
     * Publishes step {@code step} of the aggregate {@code orderingKey} to the receiver at
     * {@code path}, keyed by the aggregate, in one transaction of its own.
     *
     * @return the outbox entry's id
     */
    @Transactional
    public UUID publishStep(String orderingKey, int step, String path) {
        return outbox.publish(new OutboxMessage("order.step", "{\"step\":" + step + "}").withOrderingKey(orderingKey),
                HttpDelivery.to(RECEIVER).path(path).build());
    }

    /** Like {@link #place}, then fails, so the transaction rolls back. */
    @Transactional
    public UUID placeAndFail(String orderId) throws SQLException {
        place(orderId, "http", "/orders");
        throw new IllegalStateException("business rule violated after publishing");
    }

    /** Returns whether the order row exists (read outside any transaction). */
    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public boolean orderExists(String orderId) throws SQLException {
        return count("SELECT COUNT(*) FROM it_order WHERE id = ?", orderId) == 1;
    }

    /** Returns how many outbox entries hold the order's deduplication key. */
    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public long outboxEntriesFor(String orderId) throws SQLException {
        return count("SELECT COUNT(*) FROM outbox WHERE deduplication_key = ?", orderId + ":created");
    }

    /** Returns {@code status attempts last_error} of the order's outbox entry, if it exists. */
    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public Optional<String> outboxState(String orderId) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT status, attempts, last_error FROM outbox WHERE deduplication_key = ?")) {
            select.setString(1, orderId + ":created");
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? Optional.of(row.getString(1) + " " + row.getInt(2) + " " + row.getString(3))
                        : Optional.empty();
            }
        }
    }

    /**
     * Returns how many transactions other than the caller's are open on the outbox database: a
     * borrowed connection holding a claim would show here.
     */
    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public long otherOpenTransactions() throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return OpenTransactions.others(connection);
        }
    }

    private void insertOrder(String orderId) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO it_order (id) VALUES (?)")) {
            insert.setString(1, orderId);
            insert.executeUpdate();
        }
    }

    private long count(String sql, String parameter) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, parameter);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    private static DeliveryInfo delivery(String transport, String path, String orderId) {
        return switch (transport) {
            case "http" -> HttpDelivery.to(RECEIVER).path(path).build();
            case "kafka" -> KafkaDelivery.topic(ItConfig.KAFKA_TOPIC).key(orderId).build();
            default -> throw new IllegalArgumentException("transport must be http or kafka, got: " + transport);
        };
    }
}
