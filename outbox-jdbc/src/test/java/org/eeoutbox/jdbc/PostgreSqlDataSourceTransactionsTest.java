package org.eeoutbox.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.eeoutbox.spi.HeadFailurePolicy;
import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract on PostgreSQL, and what {@link DataSourceTransactions} sends to it per transaction, read from what
 * pgJDBC itself logs of the protocol (at FINEST, on this test's thread): every {@code Sync} it
 * sends ends one round trip, every {@code CommandStatus} it receives is one statement done (its
 * tag: {@code BEGIN}, {@code SELECT}, {@code UPDATE}, {@code COMMIT}, {@code SHOW}). On
 * {@link OneConnectionDrain}: every transaction runs on the same physical connection.
 */
class PostgreSqlDataSourceTransactionsTest extends AbstractDataSourceTransactionsTest {

    /** Held strongly: JUL keeps loggers weakly, and a collected one would lose the level and handler. */
    private final Logger protocol = Logger.getLogger("org.postgresql.core.v3.QueryExecutorImpl");
    /** {@code Sync} for each round trip, and the tag of each statement done, in order. */
    private final List<String> protocolEvents = new CopyOnWriteArrayList<>();
    private final long testThread = Thread.currentThread().getId();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLongThreadID() != testThread) {
                return;
            }
            if (record.getMessage().contains("FE=> Sync")) {
                protocolEvents.add("Sync");
            } else if (record.getMessage().contains("<=BE CommandStatus") && record.getParameters() != null) {
                protocolEvents.add(String.valueOf(record.getParameters()[0]).split(" ")[0]);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private Level previousLevel;

    @Override
    protected TestDatabase database() {
        return TestDatabases.postgresql();
    }

    @BeforeEach
    void captureProtocol() {
        previousLevel = protocol.getLevel();
        protocol.setLevel(Level.FINEST);
        protocol.addHandler(capture);
    }

    @AfterEach
    void stopCapturing() {
        protocol.removeHandler(capture);
        protocol.setLevel(previousLevel);
    }

    @Test
    void aDrainTransactionAtReadCommittedSendsClaimUpdateAndCommitOnly() throws SQLException {
        try (OneConnectionDrain engine = new OneConnectionDrain(database(), "TRANSACTION_READ_COMMITTED")) {
            protocolEvents.clear();
            engine.publish(30);
            assertEquals(1, protocolEvents.stream().filter("SHOW"::equals).count(),
                    "the first transaction asks the new connection its isolation: " + protocolEvents);
            protocolEvents.clear();

            assertEquals(30, engine.drain(10));

            // Three batches of 10 and a fourth that claims nothing; pgJDBC sends BEGIN with the claim.
            // The first claim scans from the oldest entry; the others, from a due time, send the
            // setting that keeps their generic plan in the same round trip.
            List<String> expected = new ArrayList<>(List.of("BEGIN", "SELECT", "Sync", "UPDATE", "Sync", "COMMIT", "Sync"));
            for (int i = 0; i < 2; i++) {
                expected.addAll(List.of("BEGIN", "SET", "SELECT", "Sync", "UPDATE", "Sync", "COMMIT", "Sync"));
            }
            expected.addAll(List.of("BEGIN", "SET", "SELECT", "Sync", "COMMIT", "Sync"));
            assertEquals(expected, withSyncsLast(protocolEvents), "no SHOW: the connection is not asked again");
        }
    }

    @Test
    void everyClaimAfterTheFirstFewRunsOneCachedGenericPlan() throws SQLException {
        try (OneConnectionDrain engine = new OneConnectionDrain(database(), "TRANSACTION_READ_COMMITTED")) {
            engine.publish(2_000);
            try (Connection connection = engine.pool().getConnection();
                 Statement statement = connection.createStatement()) {
                // The planner then knows it is a backlog: on a handful of rows any plan is cheap.
                statement.execute("ANALYZE outbox");
            }
            assertEquals(2_000, engine.drain(20));

            // 101 claims: the first from the oldest entry, the 100 others from a due time, another
            // statement. pgJDBC names a statement on the server from its 5th use on
            // (prepareThreshold); left to itself, the server plans the first 5 executions of a
            // named statement for their parameters before it compares those plans with the generic
            // one (here 5 custom and 91 generic). The claims from a due time force the generic
            // plan (SET LOCAL plan_cache_mode): on a backlog of 20,000 entries or more their
            // range's generic plan costs more, and without the setting the server planned every
            // one anew, as it did every claim when the limit was bound as a parameter.
            try (Connection connection = engine.pool().getConnection();
                 Statement statement = connection.createStatement();
                 ResultSet plans = statement.executeQuery("SELECT generic_plans, custom_plans FROM pg_prepared_statements "
                         + "WHERE statement LIKE '%FOR UPDATE SKIP LOCKED%'")) {
                assertTrue(plans.next(), "the claim is a named statement on the server");
                assertEquals(0, plans.getLong("custom_plans"), "never planned for its parameters");
                assertEquals(96, plans.getLong("generic_plans"), "every execution reuses the generic plan");
                assertFalse(plans.next(), "one claim statement named: the claim from the oldest ran once");
            }
        }
    }

    @Test
    void theGenericPlanOfAClaimFromADueTimeScansTheClaimIndexOnABacklog() throws SQLException {
        try (OneConnectionDrain engine = new OneConnectionDrain(database(), "TRANSACTION_READ_COMMITTED")) {
            engine.publish(1_000);
            try (Connection connection = engine.pool().getConnection();
                 Statement statement = connection.createStatement()) {
                for (int held = 1_000; held < 50_000; held *= 2) {
                    statement.execute("""
                            INSERT INTO outbox (id, message_type, payload, delivery_type, delivery_metadata, status,
                                                attempts, next_attempt_at, created_at, updated_at)
                            SELECT gen_random_uuid(), message_type, payload, delivery_type, delivery_metadata, status,
                                   attempts, next_attempt_at + random() * INTERVAL '1 second', created_at, updated_at
                            FROM outbox LIMIT %d""".formatted(Math.min(held, 50_000 - held)));
                }
                statement.execute("ANALYZE outbox");

                String plan = explainGenericClaimFromADueTime(connection);

                // What every claim from a due time runs: the claim index in order, as far as LIMIT
                // needs, with no sort of the whole range.
                assertTrue(plan.contains("Index Scan using outbox_claim_idx"), plan);
                assertFalse(plan.contains("Sort"), plan);
            }
        }
    }

    /** The plan a claim from a due time gets with its prelude (the generic plan), due now. */
    private static String explainGenericClaimFromADueTime(Connection connection) throws SQLException {
        SqlDialect dialect = new PostgreSqlDialect();
        String prelude = dialect.claimFromDueTimePrelude();
        String claim = dialect.claimSql(1, dialect.claimColumns(), HeadFailurePolicy.BLOCK, true, 10)
                .substring(prelude.length());
        int parameter = 0;
        StringBuilder numbered = new StringBuilder();
        for (char c : claim.toCharArray()) {
            numbered.append(c == '?' ? "$" + ++parameter : String.valueOf(c));
        }
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            statement.execute(prelude);
            statement.execute("PREPARE claim AS " + numbered);
            StringBuilder plan = new StringBuilder();
            try (ResultSet rows = statement.executeQuery("EXPLAIN EXECUTE claim(now() - INTERVAL '1 hour', "
                    + "now() + INTERVAL '1 hour', '" + OneConnectionDrain.TYPE + "')")) {
                while (rows.next()) {
                    plan.append(rows.getString(1)).append('\n');
                }
            }
            statement.execute("DEALLOCATE claim");
            return plan.toString();
        } finally {
            connection.rollback();
            connection.setAutoCommit(true);
        }
    }

    /**
     * The events with each round trip's {@code Sync} after the statements it answered: pgJDBC logs
     * the {@code Sync} it sends before the replies it reads.
     */
    private static List<String> withSyncsLast(List<String> events) {
        List<String> ordered = new ArrayList<>();
        boolean pending = false;
        for (String event : events) {
            if (event.equals("Sync")) {
                if (pending) {
                    ordered.add("Sync");
                }
                pending = true;
            } else {
                ordered.add(event);
            }
        }
        if (pending) {
            ordered.add("Sync");
        }
        return ordered;
    }
}
