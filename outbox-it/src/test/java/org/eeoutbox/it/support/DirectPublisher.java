package org.eeoutbox.it.support;

import java.time.Clock;
import java.util.UUID;
import javax.sql.DataSource;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxPublisher;
import org.eeoutbox.engine.StoreOutboxPublisher;
import org.eeoutbox.http.HttpDelivery;
import org.eeoutbox.it.app.Orders;
import org.eeoutbox.jdbc.DataSourceTransactions;
import org.eeoutbox.jdbc.DatabaseCheck;
import org.eeoutbox.jdbc.JdbcOutboxStore;

/**
 * Publishes from the test JVM straight into the run's outbox table, as a second application
 * sharing the table would, with no deployment's processor or wake-up involved (test JVM only).
 */
public final class DirectPublisher {

    private DirectPublisher() {
    }

    /**
     * Publishes {@code order.created} due now, for the receiver's {@code path}, creating the table
     * if it is missing.
     *
     * @param deduplicationKey the entry's deduplication key, or {@code null} for none
     * @return the entry's id
     */
    public static UUID publishDue(String path, String deduplicationKey) throws Exception {
        DataSource database = ItEnvironment.database().dataSource();
        DataSourceTransactions transactions = new DataSourceTransactions(database);
        OutboxPublisher publisher = new StoreOutboxPublisher(new JdbcOutboxStore(transactions,
                DatabaseCheck.forLocalTransactions(database, true)), 1 << 20, Clock.systemUTC());
        OutboxMessage message = new OutboxMessage("order.created", "{}");
        OutboxMessage keyed = deduplicationKey == null ? message : message.withDeduplicationKey(deduplicationKey);
        return transactions.inNewTransaction(() -> publisher.publish(keyed,
                HttpDelivery.to(Orders.RECEIVER).path(path).build()));
    }
}
