package org.eeoutbox.bench;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Runs a subject (the engine) and its baseline (the limit) in alternating rounds in the same JVM,
 * so that machine noise hits both alike, and reports medians and their ratio.
 *
 * <p>Round {@code i} runs subject then baseline when {@code i} is even, baseline then subject when
 * it is odd. Each side's untimed {@link Side#prepare()} (seeding rows, for example) runs just
 * before its timed {@link Side#run()}. The ratio is the median of the per-round ratios
 * subject/baseline, each round pairing two measurements taken seconds apart.
 */
final class Runner {

    /** One side of a comparison. */
    interface Side {

        /** Untimed set-up of one round, such as seeding the rows to drain. */
        void prepare() throws Exception;

        /** The timed work; returns the number of messages (or transactions) it processed. */
        long run() throws Exception;

        /** Returns a side made of an untimed set-up and a timed work. */
        static Side of(Task prepare, Work work) {
            return new Side() {
                @Override
                public void prepare() throws Exception {
                    prepare.run();
                }

                @Override
                public long run() throws Exception {
                    return work.run();
                }
            };
        }
    }

    /** Untimed work. */
    @FunctionalInterface
    interface Task {
        void run() throws Exception;
    }

    /** Timed work returning what it processed. */
    @FunctionalInterface
    interface Work {
        long run() throws Exception;
    }

    /**
     * A target of the issue, reported and never asserted: a least ratio, and a least rate of the
     * subject (0 for none).
     */
    record Target(double minRatio, double minRate) {

        boolean metBy(double ratio, double rate) {
            return ratio >= minRatio && rate >= minRate;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "≥ %.2f", minRatio) + (minRate > 0 ? ", ≥ " + rate(minRate) + "/s" : "");
        }
    }

    /**
     * The result of one comparison; rates are per second.
     *
     * @param family   the benchmark family, such as {@code drain}
     * @param config   the configuration, such as {@code postgresql batch=100 workers=1}
     * @param subject  the median rate of the subject
     * @param baseline the median rate of the baseline
     * @param ratio    the median of the per-round ratios subject/baseline
     * @param target   the target, or {@code null}
     * @param subjectCpu  median CPU per message of the subject, in microseconds: this JVM, the databases
     * @param baselineCpu the same for the baseline
     */
    record Comparison(String family, String config, double subject, double baseline, double ratio, Target target,
                      Cpu subjectCpu, Cpu baselineCpu) {

        /** Returns "met", "MISSED" or "" when there is no target. */
        String verdict() {
            return target == null ? "" : target.metBy(ratio, subject) ? "met" : "MISSED";
        }
    }

    /**
     * CPU per message, in microseconds: this JVM less the in-JVM HTTP receiver (the engine or the
     * limit, with the Kafka broker where there is one), the database servers, and the receiver.
     */
    record Cpu(double jvm, double database, double receiver) {

        /** {@code jvm+database}, then {@code +receiver} when a receiver ran. */
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%.0f+%.0f", jvm, database)
                    + (receiver > 0 ? String.format(Locale.ROOT, "+%.0f", receiver) : "");
        }
    }

    /** One timed run: its rate per second and its CPU per message. */
    record Sample(double rate, Cpu cpu) {
    }

    /** The fewest unmeasured rounds of each side before the first comparison of a family and database. */
    static final int WARM_UP_ROUNDS = 2;

    private final int rounds;
    private final long warmUpNanos;
    private final PrintStream out;
    private final List<Comparison> results = new ArrayList<>();

    /**
     * @param rounds measured rounds per comparison, {@code >= 1}
     * @param warmUp the least time a warm-up lasts; under load the JIT needs tens of seconds to
     *               finish compiling the engine's paths, and a comparison measured before that
     *               blames the engine for the compiler's work
     * @param out    where each comparison prints its line
     */
    Runner(int rounds, Duration warmUp, PrintStream out) {
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be >= 1, got: " + rounds);
        }
        this.rounds = rounds;
        this.warmUpNanos = warmUp.toNanos();
        this.out = out;
    }

    /**
     * Compares {@code subject} with {@code baseline}, prints one line and records the result.
     *
     * @param warmUp whether to run unmeasured rounds of each side first (JIT, caches, connections):
     *               at least {@value #WARM_UP_ROUNDS}, and for at least the runner's warm-up time
     */
    Comparison compare(String family, String config, String subjectName, Side subject, String baselineName,
                       Side baseline, Target target, boolean warmUp) throws Exception {
        long warmUpEnd = System.nanoTime() + warmUpNanos;
        for (int i = 0; warmUp && (i < WARM_UP_ROUNDS || System.nanoTime() - warmUpEnd < 0); i++) {
            measure(subject);
            measure(baseline);
        }
        Sample[] subjectSamples = new Sample[rounds];
        Sample[] baselineSamples = new Sample[rounds];
        double[] ratios = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            if (i % 2 == 0) {
                subjectSamples[i] = measure(subject);
                baselineSamples[i] = measure(baseline);
            } else {
                baselineSamples[i] = measure(baseline);
                subjectSamples[i] = measure(subject);
            }
            ratios[i] = subjectSamples[i].rate() / baselineSamples[i].rate();
        }
        Comparison result = new Comparison(family, config, medianRate(subjectSamples), medianRate(baselineSamples),
                median(ratios), target, medianCpu(subjectSamples), medianCpu(baselineSamples));
        results.add(result);
        out.printf(Locale.ROOT, "%-7s %-36s %s %9s/s %-7s  %s %9s/s %-7s  ratio %.2f %s  [%s | %s]%n", family, config,
                subjectName, rate(result.subject()), result.subjectCpu(), baselineName, rate(result.baseline()),
                result.baselineCpu(), result.ratio(),
                target == null ? "" : "(target " + target + ": " + result.verdict() + ")",
                rates(subjectSamples), rates(baselineSamples));
        out.flush();
        return result;
    }

    /** Prints a line of figures that belongs to a comparison but is not a ratio, aligned with it. */
    void note(String family, String config, String text) {
        out.printf(Locale.ROOT, "%-7s %-36s %s%n", family, config, text);
        out.flush();
    }

    /** Returns every comparison made so far, in order. */
    List<Comparison> results() {
        return List.copyOf(results);
    }

    /**
     * Runs {@code work} on {@code workers} threads at once, the caller's and {@code workers - 1}
     * of {@code executor}, and returns the sum of what they processed.
     */
    static long inParallel(int workers, Executor executor, Work work) throws Exception {
        List<CompletableFuture<Long>> others = new ArrayList<>(workers);
        for (int i = 1; i < workers; i++) {
            others.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return work.run();
                } catch (Exception e) {
                    throw new CompletionException(e);
                }
            }, executor));
        }
        long total = work.run();
        for (CompletableFuture<Long> other : others) {
            total += other.join();
        }
        return total;
    }

    /** Prepares and times one run of {@code side}. */
    static Sample measure(Side side) throws Exception {
        side.prepare();
        CpuMeter.Reading cpuBefore = CpuMeter.read();
        long start = System.nanoTime();
        long count = side.run();
        long nanos = System.nanoTime() - start;
        CpuMeter.Reading cpuAfter = CpuMeter.read();
        double perMessage = 1e-3 / Math.max(count, 1);
        long receiverNanos = cpuAfter.receiverNanos() - cpuBefore.receiverNanos();
        return new Sample(count * 1e9 / nanos, new Cpu(
                (cpuAfter.jvmNanos() - cpuBefore.jvmNanos() - receiverNanos) * perMessage,
                (cpuAfter.databaseNanos() - cpuBefore.databaseNanos()) * perMessage, receiverNanos * perMessage));
    }

    private static double medianRate(Sample[] samples) {
        return median(Arrays.stream(samples).mapToDouble(Sample::rate).toArray());
    }

    private static Cpu medianCpu(Sample[] samples) {
        return new Cpu(median(Arrays.stream(samples).mapToDouble(sample -> sample.cpu().jvm()).toArray()),
                median(Arrays.stream(samples).mapToDouble(sample -> sample.cpu().database()).toArray()),
                median(Arrays.stream(samples).mapToDouble(sample -> sample.cpu().receiver()).toArray()));
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** Formats a rate with thousands separators, no decimals. */
    static String rate(double perSecond) {
        return String.format(Locale.ROOT, "%,.0f", perSecond);
    }

    private static String rates(Sample[] samples) {
        StringBuilder text = new StringBuilder();
        for (Sample sample : samples) {
            text.append(text.length() == 0 ? "" : " ").append(rate(sample.rate()));
        }
        return text.toString();
    }
}
