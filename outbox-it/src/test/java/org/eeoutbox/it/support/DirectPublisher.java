package org.eeoutbox.it.support;

import java.time.Clock;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxPublisher;
import org.eeoutbox.engine.StoreOutboxPublisher;
import org.eeoutbox.feed.sse.FeedDelivery;
import org.eeoutbox.http.HttpDelivery;
import org.eeoutbox.it.app.Orders;
import org.eeoutbox.jdbc.DataSourceTransactions;
import org.eeoutbox.jdbc.DatabaseCheck;
import org.eeoutbox.jdbc.JdbcOutboxStore;
import org.eeoutbox.spi.DeliveryTracing;
import org.eeoutbox.spi.FeedStore;

/**
 * Publishes from the test JVM straight into the run's outbox table, as a second application (or a
 * second instance of the deployed one) sharing the table would, with no deployment's processor,
 * wake-up or feed hub involved (test JVM only).
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
        OutboxMessage message = new OutboxMessage("order.created", "{}");
        OutboxMessage keyed = deduplicationKey == null ? message : message.withDeduplicationKey(deduplicationKey);
        Direct direct = Direct.open();
        return direct.transactions().inNewTransaction(() -> direct.publisher().publish(keyed,
                HttpDelivery.to(Orders.RECEIVER).path(path).build()));
    }

    /**
     * Publishes the events {@code from} to {@code from + count - 1} to a feed {@code channel} in
     * one transaction, with the payloads of the deployment's {@code FeedEvents}:
     * {@code {"i":<number>,"pad":""}}, message type {@code tick}.
     */
    public static void publishToFeed(String channel, int from, int count) throws Exception {
        Direct direct = Direct.open();
        direct.transactions().inNewTransaction(() -> {
            for (int i = from; i < from + count; i++) {
                direct.publisher().publish(new OutboxMessage("tick", "{\"i\":" + i + ",\"pad\":\"\"}"),
                        FeedDelivery.to(channel));
            }
            return null;
        });
    }

    /** A publisher over the run's database in local transactions, with feed entries complete at publish. */
    private record Direct(DataSourceTransactions transactions, OutboxPublisher publisher) {

        static Direct open() throws Exception {
            DataSource database = ItEnvironment.database().dataSource();
            DataSourceTransactions transactions = new DataSourceTransactions(database);
            return new Direct(transactions, new StoreOutboxPublisher(new JdbcOutboxStore(transactions,
                    DatabaseCheck.forLocalTransactions(database, true)), 1 << 20, Clock.systemUTC(),
                    DeliveryTracing.NONE, Set.of(FeedStore.DELIVERY_TYPE)));
        }
    }
}
