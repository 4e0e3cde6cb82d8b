package org.eeoutbox.bench;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.logging.LogManager;
import org.eeoutbox.http.HttpClientKind;
import org.eeoutbox.testkit.KafkaBroker;
import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;

/**
 * The benchmark harness's command line: {@code ./bench [options]} (see BENCHMARKS.md). Starts the
 * servers it needs (embedded PostgreSQL 17, MySQL 8.0.15, an in-JVM Kafka broker, a JDK HTTP
 * receiver), runs the families asked for, prints one line per comparison, a summary table and,
 * last, the line {@code bench: drain ratio PG …, MySQL …, http …, kafka …; inside the server: …}.
 */
public final class Bench {

    static final List<String> FAMILIES = List.of("drain", "http", "kafka", "publish", "scale");
    static final List<String> DATABASES = List.of("postgresql", "mysql", "mariadb");
    /** Where the latency inside an application server is measured: not here, the harness has no server. */
    static final String INSIDE_THE_SERVER = "./demo --rate 300 --clients 32 (BENCHMARKS.md, \"Latency inside Payara Micro\")";

    private static final String USAGE = """
            Usage: ./bench [--quick] [options]
              --quick               a subset: drain PG and MySQL (batch 100, 1 worker, 10,000 rows), http 0 ms
                                    (1,000 messages) and kafka (10,000), 1 worker, 3 rounds; about 2 minutes
              --only=F,...          families to run, of: drain,http,kafka,publish,scale (default: all)
              --db=D,...            databases for drain, publish and scale: postgresql,mysql,mariadb
                                    (default: postgresql,mysql)
              --rounds=N            measured rounds per comparison (default 5; quick 3)
              --rows=N              rows per drain round (default 50000; quick 10000)
              --batch=N,...         drain batch sizes (default 10,100,500)
              --workers=N,...       drain workers (default 1,2,4)
              --http-rows=N         messages per HTTP round (default 5000; quick 1000)
              --http-client=C,...   the engine's HTTP clients, of: apache,jdk (default apache); the
                                    baseline is always the bare JDK client
              --http-latency=MS,... receiver latencies of the HTTP family (default 0,20; quick 0)
              --http-max-in-flight=N the cap on HTTP requests in flight, engine and bare client (default 400:
                                    a batch of 100 per worker, up to 4 workers)
              --kafka-rows=N        messages per Kafka round (default 50000; quick 10000)
              --publish-tx=N        business transactions per publish round (default 2000)
              --publish-workers=N,... threads running business transactions (default 1)
              --history-rows=N      DELIVERED rows of each scale history, long ago and two minutes ago
                                    (default 1000000)
              --scale-rows=N        PENDING rows per scale round (default 10000)
              --warm-up=S           least seconds of unmeasured rounds before the first comparison of each
                                    family and database, at least 2 rounds per side (default 30; quick 5)
              --diagnose            after each drain comparison: the limit reading the library claim's 13 columns
                                    against the 6 a delivery needs; on MySQL, the statements per transaction.
                                    HTTP: signing alone and CloudEvents alone against plain requests, and
                                    plain requests padded with as many header bytes as both add.
                                    Drain and Kafka: the engine writing each batch while delivering it
                                    (parallel dispatch) against after (sequential).
              --lease               drain and http: also the engine in lease mode against lock mode, per
                                    configuration (issue 16)
            """;

    /** The options; see {@link #USAGE}. */
    record Options(boolean quick, List<String> families, List<String> databases, int rounds, int rows,
                   List<Integer> batchSizes, List<Integer> workers, int httpRows, List<Integer> httpLatencies,
                   int httpMaxInFlight, List<Integer> httpWorkers, List<HttpClientKind> httpClients, int kafkaRows,
                   List<Integer> kafkaWorkers, int publishTransactions,
                   List<Integer> publishWorkers, int historyRows, int scaleRows, int warmUpSeconds,
                   boolean diagnose, boolean lease) {

        static Options parse(String... args) {
            Map<String, String> given = new LinkedHashMap<>();
            for (String arg : args) {
                if (!arg.startsWith("--")) {
                    throw new IllegalArgumentException("Unknown argument: " + arg);
                }
                int equals = arg.indexOf('=');
                given.put(equals < 0 ? arg.substring(2) : arg.substring(2, equals),
                        equals < 0 ? "" : arg.substring(equals + 1));
            }
            boolean quick = given.remove("quick") != null;
            List<String> families = words(given.remove("only"), quick ? List.of("drain", "http", "kafka") : FAMILIES);
            List<String> databases = words(given.remove("db"), List.of("postgresql", "mysql"));
            Options options = new Options(quick, families, databases,
                    number(given.remove("rounds"), quick ? 3 : 5),
                    number(given.remove("rows"), quick ? 10_000 : 50_000),
                    numbers(given.remove("batch"), quick ? List.of(100) : List.of(10, 100, 500), 1),
                    numbers(given.remove("workers"), quick ? List.of(1) : List.of(1, 2, 4), 1),
                    number(given.remove("http-rows"), quick ? 1_000 : 5_000),
                    numbers(given.remove("http-latency"), quick ? List.of(0) : List.of(0, 20), 0),
                    number(given.remove("http-max-in-flight"), 400),
                    quick ? List.of(1) : List.of(1, 4),
                    words(given.remove("http-client"), List.of("apache")).stream()
                            .map(word -> HttpClientKind.valueOf(word.toUpperCase(Locale.ROOT))).toList(),
                    number(given.remove("kafka-rows"), quick ? 10_000 : 50_000),
                    quick ? List.of(1) : List.of(1, 4),
                    number(given.remove("publish-tx"), 2_000),
                    numbers(given.remove("publish-workers"), List.of(1), 1),
                    number(given.remove("history-rows"), 1_000_000),
                    number(given.remove("scale-rows"), 10_000),
                    number(given.remove("warm-up"), quick ? 5 : 30),
                    given.remove("diagnose") != null,
                    given.remove("lease") != null);
            if (!given.isEmpty()) {
                throw new IllegalArgumentException("Unknown option: --" + given.keySet().iterator().next());
            }
            families.stream().filter(Predicate.not(FAMILIES::contains)).findFirst().ifPresent(family -> {
                throw new IllegalArgumentException("Unknown family: " + family + "; known: " + FAMILIES);
            });
            databases.stream().filter(Predicate.not(DATABASES::contains)).findFirst()
                    .ifPresent(db -> {
                        throw new IllegalArgumentException("Unknown database: " + db + "; known: " + DATABASES);
                    });
            return options;
        }

        boolean runs(String family) {
            return families.contains(family);
        }

        private static List<String> words(String value, List<String> otherwise) {
            return value == null ? otherwise : Arrays.stream(value.split(",")).map(String::strip)
                    .map(word -> word.equals("pg") ? "postgresql" : word).toList();
        }

        private static int number(String value, int otherwise) {
            return value == null ? otherwise : atLeast(value, 1);
        }

        private static List<Integer> numbers(String value, List<Integer> otherwise, int least) {
            return value == null ? otherwise
                    : Arrays.stream(value.split(",")).map(word -> atLeast(word.strip(), least)).toList();
        }

        private static int atLeast(String value, int least) {
            int number = Integer.parseInt(value.replace("_", ""));
            if (number < least) {
                throw new IllegalArgumentException("Expected a number of at least " + least + ", got: " + value);
            }
            return number;
        }
    }

    private Bench() {
    }

    public static void main(String[] args) throws Exception {
        if (Arrays.asList(args).contains("--help")) {
            System.out.print(USAGE);
            return;
        }
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("bench: " + e.getMessage());
            System.err.print(USAGE);
            System.exit(2);
            return;
        }
        quietLogging();
        int status = 0;
        try {
            run(options, System.out);
        } catch (Exception | Error e) {
            System.err.println("bench: failed");
            e.printStackTrace();
            status = 1;
        }
        // Exits even if a server left threads running; the embedded servers stop in shutdown hooks.
        System.exit(status);
    }

    /** Runs the benchmarks; targets missed are reported, never failed. */
    static void run(Options options, PrintStream out) throws Exception {
        long start = System.nanoTime();
        out.printf(Locale.ROOT, "bench: %s, %d rounds, families %s, databases %s, %d cores, Java %s%n",
                options.quick() ? "quick" : "full", options.rounds(), options.families(), options.databases(),
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        boolean needsOthers = options.runs("drain") || options.runs("publish") || options.runs("scale");
        // Start the servers at once: their start-up is mostly waiting.
        CompletableFuture<TestDatabase> postgresql = CompletableFuture.supplyAsync(TestDatabases::postgresql);
        CompletableFuture<TestDatabase> mysql = needsOthers && options.databases().contains("mysql")
                ? CompletableFuture.supplyAsync(TestDatabases::mysql) : null;
        CompletableFuture<TestDatabase> mariadb = needsOthers && options.databases().contains("mariadb")
                ? CompletableFuture.supplyAsync(TestDatabases::mariadb) : null;
        CompletableFuture<KafkaBroker> kafka = options.runs("kafka") ? CompletableFuture.supplyAsync(KafkaBroker::start)
                : null;
        ExecutorService executor = Executors.newCachedThreadPool(daemonThreads("bench-worker"));
        Runner runner = new Runner(options.rounds(), Duration.ofSeconds(options.warmUpSeconds()), out);
        List<BenchDatabase> opened = new ArrayList<>();
        try {
            // PostgreSQL always: the HTTP and Kafka benchmarks drain from it.
            BenchDatabase pg = BenchDatabase.open(postgresql.join(), null);
            opened.add(pg);
            List<BenchDatabase> databases = new ArrayList<>();
            List<TestDatabase> servers = new ArrayList<>();
            if (options.databases().contains("postgresql")) {
                databases.add(pg);
                servers.add(postgresql.join());
            }
            for (CompletableFuture<TestDatabase> server : Arrays.asList(mysql, mariadb)) {
                if (server != null) {
                    enlargeBufferPool(server.join(), out);
                    BenchDatabase db = BenchDatabase.open(server.join(), null);
                    opened.add(db);
                    databases.add(db);
                    servers.add(server.join());
                }
            }
            out.printf(Locale.ROOT, "bench: servers ready after %.1f s%n", (System.nanoTime() - start) / 1e9);
            if (options.runs("drain")) {
                DrainBench.run(runner, databases, options, executor);
            }
            if (options.runs("http")) {
                HttpBench.run(runner, pg, options, executor);
            }
            if (options.runs("kafka")) {
                try (KafkaBroker broker = kafka.join()) {
                    KafkaBench.run(runner, pg, broker, options, executor);
                }
            }
            if (options.runs("publish")) {
                PublishBench.run(runner, databases, options, executor);
            }
            if (options.runs("scale")) {
                ScaleBench.run(runner, servers, databases, options, executor);
            }
        } finally {
            executor.shutdownNow();
            opened.forEach(BenchDatabase::close);
        }
        printSummary(runner.results(), out);
        out.printf(Locale.ROOT, "bench: finished in %.0f s%n", (System.nanoTime() - start) / 1e9);
        out.println(lastLine(runner.results()));
    }

    /**
     * The summary as a Markdown table, ready for BENCHMARKS.md. CPU per message: this JVM less the
     * HTTP receiver, plus the databases, plus the receiver where one ran ({@link Runner.Cpu}).
     */
    static void printSummary(List<Runner.Comparison> results, PrintStream out) {
        out.println();
        out.println("| family | configuration | subject/s | baseline/s | ratio | target | | CPU µs/msg subject | CPU µs/msg baseline |");
        out.println("|---|---|---:|---:|---:|---|---|---:|---:|");
        for (Runner.Comparison result : results) {
            out.printf(Locale.ROOT, "| %s | %s | %s | %s | %.2f | %s | %s | %s | %s |%n", result.family(),
                    result.config(), Runner.rate(result.subject()), Runner.rate(result.baseline()), result.ratio(),
                    result.target() == null ? "" : result.target(), result.verdict(), result.subjectCpu(),
                    result.baselineCpu());
        }
        out.println();
    }

    /**
     * {@code bench: drain ratio PG R1, MySQL R2, http R3, kafka R4; inside the server: …}; {@code n/a}
     * for what did not run. R4 is the engine against the slower of its limits (the larger ratio).
     */
    static String lastLine(List<Runner.Comparison> results) {
        return "bench: drain ratio PG " + ratio(results, "drain", "postgresql batch=100 workers=1")
                + ", MySQL " + ratio(results, "drain", "mysql batch=100 workers=1")
                + ", http " + ratio(results, "http", "postgresql latency=0ms workers=1")
                + ", kafka " + ratio(results, "kafka", "postgresql workers=1",
                        "postgresql workers=1 " + KafkaBench.AGAINST_DRAIN)
                + "; inside the server: " + INSIDE_THE_SERVER;
    }

    /** The larger ratio of the given comparisons, or {@code n/a} when none ran. */
    private static String ratio(List<Runner.Comparison> results, String family, String... configs) {
        List<String> wanted = List.of(configs);
        OptionalDouble best = results.stream()
                .filter(result -> result.family().equals(family) && wanted.contains(result.config()))
                .mapToDouble(Runner.Comparison::ratio).max();
        return best.isPresent() ? String.format(Locale.ROOT, "%.2f", best.getAsDouble()) : "n/a";
    }

    /**
     * The embedded MySQL (and MariaDB) starts with a small buffer pool, sized for tests; a server holding a
     * million-row outbox would have far more. Grown online to 1 GiB (embedded server only).
     */
    private static void enlargeBufferPool(TestDatabase mysql, PrintStream out) {
        String name = mysql.name();
        if (System.getProperty("outbox.test." + name + ".url") != null
                || System.getenv("OUTBOX_TEST_" + name.toUpperCase(Locale.ROOT) + "_URL") != null) {
            return;
        }
        try (Connection connection = mysql.dataSource().getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute("SET GLOBAL innodb_buffer_pool_size = " + (1L << 30));
        } catch (SQLException e) {
            out.println("bench: could not enlarge the MySQL buffer pool: " + e.getMessage());
        }
    }

    /** Library logging stays on java.util.logging, on stderr, at WARNING unless configured otherwise. */
    private static void quietLogging() throws IOException {
        if (System.getProperty("java.util.logging.config.file") != null) {
            return;
        }
        String config = """
                handlers = java.util.logging.ConsoleHandler
                .level = WARNING
                java.util.logging.ConsoleHandler.level = ALL
                java.util.logging.SimpleFormatter.format = %1$tT.%1$tL %4$s %3$s: %5$s%6$s%n
                kafka.level = WARNING
                org.apache.kafka.level = WARNING
                state.change.logger.level = WARNING
                io.zonky.level = WARNING
                com.zaxxer.hikari.level = WARNING
                """;
        LogManager.getLogManager().readConfiguration(new ByteArrayInputStream(config.getBytes(StandardCharsets.UTF_8)));
    }

    /** Daemon threads named {@code prefix-N}, so that a forgotten pool never keeps the JVM alive. */
    static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
