package org.eeoutbox.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Drain rate with a no-op transport: {@code rows} PENDING rows claimed, "delivered" and marked
 * DELIVERED by the engine, against the {@link JdbcLimit} loop, per database, batch size and number
 * of workers; at batch size 100, also the same rows spread over 10,000 ordering keys against the
 * unkeyed rows. Every round starts from the same table: truncated, seeded, analyzed (untimed).
 */
final class DrainBench {

    private static final Runner.Target TARGET = new Runner.Target(0.90, 0);

    /** Issue 17: the drain of entries spread over this many ordering keys, at least 0.8 of the unkeyed one. */
    private static final int ORDERING_KEYS = 10_000;
    private static final Runner.Target KEYED_TARGET = new Runner.Target(0.80, 0);

    private DrainBench() {
    }

    /** Prints how many statements of each kind one drain sent per committed transaction (MySQL). */
    private static void countStatements(BenchDatabase db, Runner.Task seed, String side, Runner.Work drain)
            throws Exception {
        seed.run();
        Map<String, Long> before = db.mysqlStatementCounts();
        drain.run();
        Map<String, Long> after = db.mysqlStatementCounts();
        double commits = after.get("Com_commit") - before.get("Com_commit");
        StringBuilder line = new StringBuilder("diag    " + db.label() + " " + side + " statements per transaction:");
        after.forEach((name, count) -> line.append(String.format(Locale.ROOT, " %s %.2f", name,
                (count - before.get(name)) / commits)));
        System.out.println(line.append(" (").append((long) commits).append(" transactions; Questions includes the"
                + " 2 SHOW STATUS)"));
    }

    static void run(Runner runner, List<BenchDatabase> databases, Bench.Options options, Executor executor)
            throws Exception {
        int rows = options.rows();
        for (BenchDatabase db : databases) {
            boolean warmUp = true;
            Runner.Task seed = db.seeding(rows, Engine.NOOP_TYPE, Engine.NOOP_METADATA);
            for (int batchSize : options.batchSizes()) {
                for (int workers : options.workers()) {
                    String config = db.label() + " batch=" + batchSize + " workers=" + workers;
                    Engine engine = new Engine(db, Engine.noop(), batchSize, workers, executor);
                    JdbcLimit limit = new JdbcLimit(db, Engine.NOOP_TYPE, batchSize, workers, executor, false);
                    Runner.Side engineSide = Runner.Side.of(seed, () -> engine.drain(rows));
                    Runner.Side limitSide = Runner.Side.of(seed, () -> limit.drain(rows));
                    runner.compare("drain", config, "engine", engineSide, "limit", limitSide,
                            batchSize == 100 && (workers == 1 || workers == 4) ? TARGET : null, warmUp);
                    warmUp = false;
                    if (batchSize == 100) {
                        Runner.Task seedKeyed = () -> {
                            seed.run();
                            db.assignOrderingKeys(ORDERING_KEYS);
                            db.analyze();
                        };
                        runner.compare("drain", config + " keyed (" + ORDERING_KEYS + " keys)", "keyed",
                                Runner.Side.of(seedKeyed, () -> engine.drain(rows)), "unkeyed", engineSide,
                                KEYED_TARGET, false);
                    }
                    if (options.lease()) {
                        Engine leased = new Engine(db, Engine.noop(), batchSize, workers, executor, true);
                        runner.compare("lease", config, "lease", Runner.Side.of(seed, () -> leased.drain(rows)),
                                "lock", engineSide, null, false);
                    }
                    if (options.diagnose()) {
                        JdbcLimit wide = new JdbcLimit(db, Engine.NOOP_TYPE, batchSize, workers, executor, true);
                        runner.compare("diag", config + " columns", "13", Runner.Side.of(seed, () -> wide.drain(rows)),
                                "6", limitSide, null, false);
                        Engine sequential = Engine.sequential(db, Engine.noop(), batchSize, workers, executor);
                        runner.compare("diag", config + " batch written", "while delivering", engineSide, "after",
                                Runner.Side.of(seed, () -> sequential.drain(rows)), null, false);
                        if (!db.isPostgresql()) {
                            countStatements(db, seed, "engine", () -> engine.drain(rows));
                            countStatements(db, seed, "limit", () -> limit.drain(rows));
                        }
                    }
                }
            }
        }
    }
}
