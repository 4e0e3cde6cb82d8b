package org.eeoutbox.bench;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executor;
import org.eeoutbox.testkit.TestDatabase;

/**
 * Whether history slows the claim: the drain rate (batch 100, one worker, no-op transport) of
 * {@code scaleRows} PENDING rows in a table that also holds {@code historyRows} DELIVERED rows,
 * against the same rows in a table that holds nothing else. Both tables live side by side (a second
 * PostgreSQL schema, a second MySQL database), so their rounds alternate. Two histories, one after
 * the other in the same table:
 * <ol>
 * <li>rows delivered long ago, the table vacuumed since (a table at rest);</li>
 * <li>as many more rows delivered two minutes ago, with autovacuum off on PostgreSQL: each left a
 * dead entry at the front of the claim index (MySQL and MariaDB: the bench waits until the
 * update is two minutes old, for InnoDB's purge, which removes them by itself). The engine is
 * also compared, side by side on that table, with itself scanning from the oldest entry in every
 * claim ({@code fullScanInterval} 0), as it did before claims started from a due time, to show
 * what that window saves; and so again with the rows spread over {@value #ORDERING_KEYS} ordering
 * keys, whose releases moved every claim back to the oldest entry until the window learnt to
 * start from the released entries instead.</li>
 * </ol>
 * The JDBC limit (which always scans from the oldest) is compared the same way, to tell the
 * database's share from the library's.
 */
final class ScaleBench {

    static final String HISTORY_SCHEMA = "bench_history";
    private static final int BATCH_SIZE = 100;
    /** The ordering keys of the keyed comparison: ten entries a key in the default 10,000 rows. */
    private static final int ORDERING_KEYS = 1_000;
    private static final Runner.Target TARGET = new Runner.Target(0.90, 0);

    private ScaleBench() {
    }

    /**
     * @param empties the default-schema tables, one per server in {@code servers}
     */
    static void run(Runner runner, List<TestDatabase> servers, List<BenchDatabase> empties, Bench.Options options,
                    Executor executor) throws Exception {
        int rows = options.scaleRows();
        for (int i = 0; i < servers.size(); i++) {
            BenchDatabase empty = empties.get(i);
            try (BenchDatabase history = BenchDatabase.open(servers.get(i), HISTORY_SCHEMA)) {
                long start = System.nanoTime();
                history.seedDelivered(options.historyRows(), Engine.NOOP_TYPE, Engine.NOOP_METADATA);
                if (history.isPostgresql()) {
                    history.execute("VACUUM outbox");
                }
                history.analyze();
                System.out.printf(Locale.ROOT, "scale   %s: %,d DELIVERED rows inserted in %.1f s%n", history.label(),
                        options.historyRows(), (System.nanoTime() - start) / 1e9);
                compare(runner, "with history", history, empty, rows, executor, false);

                if (history.isPostgresql()) {
                    history.execute("ALTER TABLE outbox SET (autovacuum_enabled = false)");
                }
                start = System.nanoTime();
                history.seedRecentlyDelivered(options.historyRows(), Engine.NOOP_TYPE, Engine.NOOP_METADATA);
                history.analyze();
                double seeded = (System.nanoTime() - start) / 1e9;
                Duration purge = history.awaitPurge(start);
                System.out.printf(Locale.ROOT, "scale   %s: %,d more rows delivered two minutes ago in %.1f s%s%n",
                        history.label(), options.historyRows(), seeded,
                        history.isPostgresql() ? ", autovacuum off: " + history.claimIndexReport()
                                : String.format(Locale.ROOT, ", then %.1f s for InnoDB's purge", purge.toNanos() / 1e9));
                compare(runner, "recently delivered", history, empty, rows, executor, true);
                if (history.isPostgresql()) {
                    System.out.println("scale   " + history.label() + " at the end: " + history.claimIndexReport());
                }
                history.dropOutboxTables();
            }
        }
    }

    /**
     * Compares the engine and the JDBC limit on {@code history} with each on {@code empty}, and
     * with {@code everyClaimFromTheOldest} the engine on {@code history} with the one whose claims
     * all scan from the oldest entry.
     */
    private static void compare(Runner runner, String subject, BenchDatabase history, BenchDatabase empty, int rows,
                                Executor executor, boolean everyClaimFromTheOldest) throws Exception {
        Runner.Task seedEmpty = empty.seeding(rows, Engine.NOOP_TYPE, Engine.NOOP_METADATA);
        // No truncate: the history stays, with whatever dead entries the earlier rounds left.
        Runner.Task seedHistory = () -> {
            history.seedPending(rows, Engine.NOOP_TYPE, Engine.NOOP_METADATA);
            history.analyze();
        };
        Engine engineEmpty = new Engine(empty, Engine.noop(), BATCH_SIZE, 1, executor);
        Engine engineHistory = new Engine(history, Engine.noop(), BATCH_SIZE, 1, executor);
        runner.compare("scale", empty.label() + " engine", subject,
                Runner.Side.of(seedHistory, () -> engineHistory.drain(rows)),
                "empty", Runner.Side.of(seedEmpty, () -> engineEmpty.drain(rows)), TARGET, true);
        if (everyClaimFromTheOldest) {
            Engine fromTheOldest = new Engine(history, Engine.noop(), BATCH_SIZE, 1, executor, false, Duration.ZERO);
            runner.compare("scale", empty.label() + " engine", subject + ": claim window",
                    Runner.Side.of(seedHistory, () -> engineHistory.drain(rows)),
                    "every claim from the oldest", Runner.Side.of(seedHistory, () -> fromTheOldest.drain(rows)),
                    null, false);
            Runner.Task seedHistoryKeyed = () -> {
                history.seedPending(rows, Engine.NOOP_TYPE, Engine.NOOP_METADATA);
                history.assignOrderingKeysToPending(ORDERING_KEYS);
                history.analyze();
            };
            runner.compare("scale", empty.label() + " engine",
                    subject + ", " + ORDERING_KEYS + " keys: claim window",
                    Runner.Side.of(seedHistoryKeyed, () -> engineHistory.drain(rows)),
                    "every claim from the oldest", Runner.Side.of(seedHistoryKeyed, () -> fromTheOldest.drain(rows)),
                    null, false);
        }
        JdbcLimit limitEmpty = new JdbcLimit(empty, Engine.NOOP_TYPE, BATCH_SIZE, 1, executor, false);
        JdbcLimit limitHistory = new JdbcLimit(history, Engine.NOOP_TYPE, BATCH_SIZE, 1, executor, false);
        runner.compare("scale", empty.label() + " limit", subject,
                Runner.Side.of(seedHistory, () -> limitHistory.drain(rows)),
                "empty", Runner.Side.of(seedEmpty, () -> limitEmpty.drain(rows)), null, false);
    }
}
