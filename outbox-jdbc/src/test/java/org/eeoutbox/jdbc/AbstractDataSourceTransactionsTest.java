package org.eeoutbox.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.eeoutbox.testkit.TestDatabase;
import org.junit.jupiter.api.Test;

/**
 * {@link DataSourceTransactions}' READ COMMITTED against a real database, written once: a subclass
 * supplies the database and adds what it counts of the statements per transaction.
 */
abstract class AbstractDataSourceTransactionsTest {

    /** Returns the real database to run against. */
    protected abstract TestDatabase database();

    @Test
    final void aPoolAtRepeatableReadRunsEveryTransactionAtReadCommitted() throws SQLException {
        try (OneConnectionDrain engine = new OneConnectionDrain(database(), "TRANSACTION_REPEATABLE_READ")) {
            DataSourceTransactions transactions = engine.transactions();
            List<Integer> levels = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                levels.add(transactions.inNewTransaction(() -> isolation(transactions)));
                try (Connection plain = engine.pool().getConnection()) {
                    levels.add(plain.getTransactionIsolation());
                }
            }

            int committed = Connection.TRANSACTION_READ_COMMITTED;
            int repeatable = Connection.TRANSACTION_REPEATABLE_READ;
            assertEquals(List.of(committed, repeatable, committed, repeatable, committed, repeatable), levels,
                    "the pool restores its level on return; each transaction sets READ COMMITTED again");
        }
    }

    private static int isolation(DataSourceTransactions transactions) {
        try {
            return transactions.withConnection(Connection::getTransactionIsolation);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
