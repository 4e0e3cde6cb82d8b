package org.eeoutbox.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;
import org.junit.jupiter.api.Test;

/**
 * The contract on MySQL, and what {@link DataSourceTransactions} sends to it per transaction,
 * counted by the server: the session's statement counters of the one connection of
 * {@link OneConnectionDrain}, read before and after the drain.
 */
class MySqlDataSourceTransactionsTest extends AbstractDataSourceTransactionsTest {

    private static final String COUNTERS = "SHOW SESSION STATUS WHERE Variable_name IN "
            + "('Com_select', 'Com_update', 'Com_commit', 'Com_set_option')";

    @Override
    protected TestDatabase database() {
        return TestDatabases.mysql();
    }

    @Test
    void aDrainTransactionAtReadCommittedSendsClaimUpdateCommitAndTheAutoCommitSwitches() throws SQLException {
        try (OneConnectionDrain engine = new OneConnectionDrain(database(), "TRANSACTION_READ_COMMITTED")) {
            engine.publish(30);
            Map<String, Long> before = counters(engine);

            assertEquals(30, engine.drain(10));

            Map<String, Long> sent = new LinkedHashMap<>();
            counters(engine).forEach((name, value) -> sent.put(name, value - before.get(name)));
            // Three batches of 10 and a fourth that claims nothing: one claim and one commit each,
            // an update for each full one, and auto-commit off and on again (HikariCP's default).
            assertEquals(Map.of("Com_select", 4L, "Com_update", 3L, "Com_commit", 4L, "Com_set_option", 8L), sent,
                    "no isolation query or SET after the first transaction on the connection");
        }
    }

    private static Map<String, Long> counters(OneConnectionDrain engine) throws SQLException {
        Map<String, Long> counters = new LinkedHashMap<>();
        try (Connection connection = engine.pool().getConnection(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(COUNTERS)) {
            while (rows.next()) {
                counters.put(rows.getString(1), rows.getLong(2));
            }
        }
        return counters;
    }
}
