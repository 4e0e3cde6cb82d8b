package org.eeoutbox.jta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.transaction.Status;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The provider's own logic: the status check, and a connection handle per call that is always
 * closed. That the container enlists the connection in the transaction is the container's part;
 * {@code PublishIT} in outbox-it proves it on a server (the business row and the outbox row
 * commit together, a rollback leaves neither, no transaction writes nothing).
 */
class JtaConnectionProviderTest {

    private final FakeTransactionSynchronizationRegistry registry = new FakeTransactionSynchronizationRegistry();
    private final CountingDataSource connections = new CountingDataSource();
    private final JtaConnectionProvider provider = new JtaConnectionProvider(connections.dataSource, registry);

    @Test
    void inAnActiveTransactionTheWorkGetsTheDataSourcesConnectionWhichIsClosedAfterwards() throws SQLException {
        registry.begin();
        AtomicBoolean openDuringWork = new AtomicBoolean();

        String result = provider.withConnection(connection -> {
            assertSame(connections.lent.get(0), connection);
            openDuringWork.set(!connection.isClosed());
            return "done";
        });

        assertEquals("done", result);
        assertTrue(openDuringWork.get(), "the connection was open while the work ran");
        assertEquals(1, connections.lent.size());
        assertEquals(0, connections.open(), "the handle went back to the container");
    }

    @Test
    void eachCallBorrowsAHandleOfItsOwn() throws SQLException {
        registry.begin();

        Connection first = provider.withConnection(connection -> connection);
        Connection second = provider.withConnection(connection -> connection);

        assertFalse(first == second, "a closed handle is never lent again");
        assertEquals(0, connections.open());
    }

    @Test
    void theConnectionIsClosedWhenTheWorkFails() {
        registry.begin();
        SQLException failure = new SQLException("duplicate key", "23505");

        SQLException thrown = assertThrows(SQLException.class, () -> provider.withConnection(connection -> {
            throw failure;
        }));

        assertSame(failure, thrown);
        assertEquals(1, connections.lent.size());
        assertEquals(0, connections.open());
    }

    @Test
    void aDataSourceFailureReachesTheCallerAndNoWorkRuns() {
        registry.begin();
        SQLException down = new SQLException("pool exhausted");
        connections.failWith(down);
        AtomicBoolean ran = new AtomicBoolean();

        SQLException thrown = assertThrows(SQLException.class, () -> provider.withConnection(connection -> {
            ran.set(true);
            return null;
        }));

        assertSame(down, thrown);
        assertFalse(ran.get());
    }

    @ParameterizedTest
    @ValueSource(ints = {Status.STATUS_NO_TRANSACTION, Status.STATUS_MARKED_ROLLBACK, Status.STATUS_PREPARING,
        Status.STATUS_PREPARED, Status.STATUS_COMMITTING, Status.STATUS_COMMITTED, Status.STATUS_ROLLING_BACK,
        Status.STATUS_ROLLEDBACK, Status.STATUS_UNKNOWN})
    void anyStatusButActiveIsRefusedNamingItAndNothingRuns(int status) {
        registry.status(status);
        AtomicBoolean ran = new AtomicBoolean();

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> provider.withConnection(connection -> {
            ran.set(true);
            return null;
        }));

        assertTrue(e.getMessage().contains("needs an active JTA transaction, found " + TransactionStatuses.name(status)),
                e.getMessage());
        assertFalse(ran.get(), "no work ran");
        assertTrue(connections.lent.isEmpty(), "no connection was borrowed");
    }

    @Test
    void theRefusalSaysHowToFixIt() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> provider.withConnection(connection -> null));

        assertTrue(e.getMessage().contains("found STATUS_NO_TRANSACTION"), e.getMessage());
        assertTrue(e.getMessage().contains("@Transactional"), e.getMessage());
        assertTrue(e.getMessage().contains("outbox.processor.transaction-timeout"), e.getMessage());
    }
}
