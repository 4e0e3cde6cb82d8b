package org.eeoutbox.jta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.transaction.Status;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.eeoutbox.DeliveryInfo;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxPublisher;
import org.eeoutbox.engine.StoreOutboxPublisher;
import org.eeoutbox.jdbc.JdbcOutboxStore;
import org.eeoutbox.jdbc.SqlDialect;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The publisher applications inject: the delivery-type check, the order "write, then arrange the
 * wake-up", and, assembled as {@code OutboxRuntime} assembles it, the refusal to publish outside
 * an active transaction.
 */
class JtaOutboxPublisherTest {

    private record Delivery(String deliveryType) implements DeliveryInfo {
        @Override
        public String metadataJson() {
            return "{}";
        }
    }

    private static final DeliveryInfo HTTP = new Delivery("http");
    private static final OutboxMessage MESSAGE = new OutboxMessage("order.created", "{\"order\":42}");

    private final FakeTransactionSynchronizationRegistry registry = new FakeTransactionSynchronizationRegistry();
    private final AtomicInteger wakeUps = new AtomicInteger();
    private final AfterCommitWakeUp wakeUp = new AfterCommitWakeUp(registry, wakeUps::incrementAndGet);

    /** What the store publisher was given, as "messageType deliveryType". */
    private final List<String> written = new ArrayList<>();
    private final UUID storedId = UUID.randomUUID();
    private final OutboxPublisher store = (message, deliveryInfo) -> {
        written.add(message.messageType() + " " + deliveryInfo.deliveryType());
        return storedId;
    };

    @Test
    void aKnownTypeIsWrittenThroughTheStorePublisherAndWakesTheProcessorAfterTheCommit() {
        JtaOutboxPublisher publisher = new JtaOutboxPublisher(store, wakeUp, Set.of("http", "kafka"));
        registry.begin();

        UUID id = publisher.publish(MESSAGE, HTTP);

        assertEquals(storedId, id, "the store's id, which is the existing entry's for a repeated key");
        assertEquals(List.of("order.created http"), written);
        assertEquals(0, wakeUps.get(), "not before the commit");
        registry.commit();
        assertEquals(1, wakeUps.get());
    }

    @Test
    void anUnknownTypeIsRejectedNamingItAndTheKnownTypesAndNothingIsWritten() {
        JtaOutboxPublisher publisher = new JtaOutboxPublisher(store, wakeUp, Set.of("http"));
        registry.begin();

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> publisher.publish(MESSAGE, new Delivery("smtp")));

        assertTrue(e.getMessage().contains("'smtp' has no deliverer"), e.getMessage());
        assertTrue(e.getMessage().contains("known delivery types: [http]"), e.getMessage());
        assertTrue(written.isEmpty(), "nothing written");
        assertTrue(registry.synchronizations.isEmpty(), "no wake-up arranged");
    }

    @Test
    void theKnownTypesAreFixedWhenThePublisherIsBuilt() {
        Set<String> types = new HashSet<>(Set.of("http"));
        JtaOutboxPublisher publisher = new JtaOutboxPublisher(store, wakeUp, types);
        types.add("smtp");
        registry.begin();

        assertThrows(IllegalArgumentException.class, () -> publisher.publish(MESSAGE, new Delivery("smtp")));
    }

    @Test
    void aRefusedWriteArrangesNoWakeUp() {
        IllegalArgumentException tooLarge = new IllegalArgumentException("payload must be at most 10 bytes");
        JtaOutboxPublisher publisher = new JtaOutboxPublisher((message, deliveryInfo) -> {
            throw tooLarge;
        }, wakeUp, Set.of("http"));
        registry.begin();

        assertSame(tooLarge, assertThrows(IllegalArgumentException.class, () -> publisher.publish(MESSAGE, HTTP)));

        assertTrue(registry.synchronizations.isEmpty());
    }

    // ------------------------------------------- assembled as in OutboxRuntime, without a database

    private final CountingDataSource connections = new CountingDataSource();

    @ParameterizedTest
    @ValueSource(ints = {Status.STATUS_NO_TRANSACTION, Status.STATUS_MARKED_ROLLBACK})
    void withoutAnActiveTransactionPublishIsRefusedNamingTheStatusAndNothingIsBorrowed(int status)
            throws SQLException {
        OutboxPublisher publisher = assembled();
        if (status == Status.STATUS_MARKED_ROLLBACK) {
            registry.begin();
            registry.setRollbackOnly();
        }

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> publisher.publish(MESSAGE, HTTP));

        assertTrue(e.getMessage().startsWith("The outbox needs an active JTA transaction, found "
                + TransactionStatuses.name(status) + "."), e.getMessage());
        assertTrue(connections.lent.isEmpty(), "no connection was borrowed");
        assertTrue(registry.synchronizations.isEmpty(), "no wake-up arranged");
    }

    @Test
    void aNullDeliveryIsRejectedByTheStorePublishersCheckNamingTheArgument() throws SQLException {
        OutboxPublisher publisher = assembled();
        registry.begin();

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> publisher.publish(MESSAGE, null));

        assertEquals("deliveryInfo must not be null", e.getMessage());
        assertTrue(connections.lent.isEmpty());
    }

    @Test
    void aDeliveryWithoutATypeIsRejectedNamingTheArgument() throws SQLException {
        OutboxPublisher publisher = assembled();
        registry.begin();

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> publisher.publish(MESSAGE, new Delivery(null)));

        assertTrue(e.getMessage().contains("deliveryInfo.deliveryType()"), e.getMessage());
        assertTrue(connections.lent.isEmpty());
    }

    private OutboxPublisher assembled() throws SQLException {
        JdbcOutboxStore jdbcStore = new JdbcOutboxStore(new JtaConnectionProvider(connections.dataSource, registry),
                SqlDialect.detect(postgreSql17()));
        return new JtaOutboxPublisher(new StoreOutboxPublisher(jdbcStore, StoreOutboxPublisher.DEFAULT_MAX_PAYLOAD_BYTES,
                Clock.systemUTC()), wakeUp, Set.of("http"));
    }

    /** A connection that only describes itself, enough for {@link SqlDialect#detect}. */
    private static Connection postgreSql17() {
        DatabaseMetaData metaData = (DatabaseMetaData) Proxy.newProxyInstance(
                JtaOutboxPublisherTest.class.getClassLoader(), new Class<?>[] {DatabaseMetaData.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getDatabaseProductName" -> "PostgreSQL";
                    case "getDatabaseProductVersion" -> "17.2";
                    case "getDatabaseMajorVersion" -> 17;
                    case "getDatabaseMinorVersion" -> 2;
                    default -> throw new UnsupportedOperationException(method.toString());
                });
        return (Connection) Proxy.newProxyInstance(JtaOutboxPublisherTest.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getMetaData")) {
                        return metaData;
                    }
                    throw new UnsupportedOperationException(method.toString());
                });
    }
}
