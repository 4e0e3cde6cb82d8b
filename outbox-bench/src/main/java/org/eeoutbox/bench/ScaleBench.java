package org.eeoutbox.bench;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executor;
import org.eeoutbox.testkit.TestDatabase;

/**
 * Whether history slows the claim: the drain rate (batch 100, one worker, no-op transport) of
 * {@code scaleRows} PENDING rows in a table that also holds {@code historyRows} DELIVERED rows,
 * against the same rows in a table that holds nothing else. Both tables live side by side (a second
 * PostgreSQL schema, a second MySQL database), so their rounds alternate. The JDBC limit is
 * compared the same way, to tell the database's share from the library's. With {@code --diagnose}
 * the PostgreSQL history table is vacuumed (untimed) before each round, to tell the dead index
 * entries that delivered rows leave in the claim index from the history itself.
 */
final class ScaleBench {

    static final String HISTORY_SCHEMA = "bench_history";
    private static final int BATCH_SIZE = 100;
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
                history.analyze();
                System.out.printf(Locale.ROOT, "scale   %s: %,d DELIVERED rows inserted in %.1f s%n", history.label(),
                        options.historyRows(), (System.nanoTime() - start) / 1e9);
                Runner.Task seedEmpty = empty.seeding(rows, Engine.NOOP_TYPE, Engine.NOOP_METADATA);
                boolean vacuum = options.diagnose() && history.isPostgresql();
                Runner.Task seedHistory = () -> {
                    if (vacuum) {
                        history.execute("VACUUM outbox");
                    }
                    history.seedPending(rows, Engine.NOOP_TYPE, Engine.NOOP_METADATA);
                    history.analyze();
                };
                Engine engineEmpty = new Engine(empty, Engine.noop(), BATCH_SIZE, 1, executor);
                Engine engineHistory = new Engine(history, Engine.noop(), BATCH_SIZE, 1, executor);
                runner.compare("scale", empty.label() + " engine", "with history",
                        Runner.Side.of(seedHistory, () -> engineHistory.drain(rows)),
                        "empty", Runner.Side.of(seedEmpty, () -> engineEmpty.drain(rows)), TARGET, true);
                JdbcLimit limitEmpty = new JdbcLimit(empty, Engine.NOOP_TYPE, BATCH_SIZE, 1, executor, false);
                JdbcLimit limitHistory = new JdbcLimit(history, Engine.NOOP_TYPE, BATCH_SIZE, 1, executor, false);
                runner.compare("scale", empty.label() + " limit", "with history",
                        Runner.Side.of(seedHistory, () -> limitHistory.drain(rows)),
                        "empty", Runner.Side.of(seedEmpty, () -> limitEmpty.drain(rows)), null, false);
                if (history.isPostgresql()) {
                    System.out.println("scale   " + history.label() + (vacuum ? " (VACUUM before each round)" : "")
                            + ": " + history.claimIndexReport());
                }
                history.dropOutboxTables();
            }
        }
    }
}
