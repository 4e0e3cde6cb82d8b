package org.eeoutbox.demo;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.eeoutbox.testkit.HttpReceiver;

/**
 * What the demo shows about a run: the progress line while orders are placed and delivered
 * ({@link #progress}), and the summary at the end, whose last line is
 * {@code demo: delivered N/N http, N/N kafka, duplicates D} ({@link #printSummary}).
 *
 * <p>Reads the tallies, which the receivers update concurrently; a {@link Progress} is used by
 * one thread. Nothing here throws.
 */
final class DemoReport {

    private final Console console;
    private final DemoOptions options;
    private final Path work;
    private final Tally http;
    private final Tally kafka;
    private final Tally feed;

    /** @param feed the feed clients' arrivals ({@link FeedFollowers}), empty without {@code --feed-clients} */
    DemoReport(Console console, DemoOptions options, Path work, Tally http, Tally kafka, Tally feed) {
        this.console = console;
        this.options = options;
        this.work = work;
        this.http = http;
        this.kafka = kafka;
        this.feed = feed;
    }

    /** What a run measured, for the summary. */
    record Result(int placed, int failedRequests, String firstFailure, int httpDelivered, int kafkaDelivered,
            Map<String, Double> counters, Map<String, Long> outbox, Throwable kafkaFailure, boolean payaraDied,
            Instant measuredFrom, long chaosDownNanos, long infrastructureNanos, long payaraNanos, long loadNanos,
            long deliveryTailNanos, FeedFollowers.Outcome feed) {

        /**
         * Every order placed, each of its messages arrived at both receivers, and, with feed
         * clients ({@code feed} not {@code null}), at every client in order.
         */
        boolean complete() {
            return failedRequests == 0 && httpDelivered == placed && kafkaDelivered == placed && kafkaFailure == null
                    && (feed == null || feed.complete(placed));
        }
    }

    /**
     * Returns the progress line of orders placed by {@code clients} since {@code start} (a
     * {@link System#nanoTime()}); {@code receiver} shows when the webhook receiver is down.
     */
    Progress progress(long start, OrderClients clients, HttpReceiver receiver) {
        return new Progress(start, clients, receiver);
    }

    /** The progress line: orders placed, messages delivered per transport, rates. */
    final class Progress {

        private final long start;
        private final OrderClients clients;
        private final HttpReceiver receiver;
        private final long[] sampleNanos = new long[6];
        private final long[] samplePlaced = new long[6];
        private final long[] sampleDelivered = new long[6];
        private int samples;

        private Progress(long start, OrderClients clients, HttpReceiver receiver) {
            this.start = start;
            this.clients = clients;
            this.receiver = receiver;
        }

        /** Redraws the line; {@code force} draws it even when the console would skip it. */
        void show(boolean force) {
            long now = System.nanoTime();
            long placed = clients.placed().size() + clients.failed();
            long delivered = http.orders() + kafka.orders();
            int slot = samples % sampleNanos.length;
            int oldest = samples < sampleNanos.length ? 0 : (samples + 1) % sampleNanos.length;
            sampleNanos[slot] = now;
            samplePlaced[slot] = placed;
            sampleDelivered[slot] = delivered;
            samples++;
            double window = (now - sampleNanos[oldest]) / 1e9;
            long placedRate = window > 0 ? Math.round((placed - samplePlaced[oldest]) / window) : 0;
            long deliveredRate = window > 0 ? Math.round((delivered - sampleDelivered[oldest]) / window) : 0;
            String down = receiver != null && !receiver.isListening() ? " DOWN" : "";
            // At most about 80 columns: a wrapped line cannot be redrawn in place.
            console.progress(String.format(Locale.ROOT, "  placed %s/%s (%s/s) | http %s%s, kafka %s (%s/s) | %ds",
                    Console.count(placed), Console.count(options.orders()), Console.count(placedRate),
                    Console.count(http.orders()), down, Console.count(kafka.orders()), Console.count(deliveredRate),
                    (now - start) / 1_000_000_000L), force);
        }
    }

    /** Prints the summary of {@code r}; {@code elapsedNanos} is the whole run's duration. */
    void printSummary(Result r, long elapsedNanos) {
        int n = options.orders();
        console.line("Summary");
        console.line("  orders placed       " + Console.count(r.placed()) + " of " + Console.count(n)
                + (r.failedRequests() > 0 ? " (" + Console.count(r.failedRequests()) + " requests failed, first: "
                        + r.firstFailure() + ")" : ""));
        console.line("  messages published  " + Console.count(2L * r.placed()) + " order.created: "
                + Console.count(r.placed()) + " to the webhook, " + Console.count(r.placed()) + " to Kafka"
                + (r.feed() == null ? "" : "; and " + Console.count(r.placed()) + " to the feed"));
        console.line(deliveryLine("delivered over HTTP ", http, r.httpDelivered(), n, r.measuredFrom()));
        console.line(deliveryLine("delivered to Kafka  ", kafka, r.kafkaDelivered(), n, r.measuredFrom()));
        if (r.feed() != null) {
            console.line(feedLine(r.feed(), n, r.measuredFrom()));
        }
        if (options.warmUp() > 0) {
            console.line("  latency             of the " + Console.count(n - options.warmUp())
                    + " orders after the warm-up: from the order's creation in its transaction to arrival");
        }
        if (options.chaos()) {
            console.line("  chaos               webhook receiver down for " + Console.seconds(r.chaosDownNanos()));
        }
        console.line("  outbox metrics      " + (r.counters().isEmpty() ? "not readable"
                : "delivered " + counter(r, "outbox_delivered") + ", retries " + counter(r, "outbox_retries")
                        + ", failed " + counter(r, "outbox_failed") + " (MicroProfile Metrics outbox.*)"));
        console.line("  outbox table        " + (r.outbox().isEmpty() ? "empty"
                : r.outbox().entrySet().stream().map(e -> Console.count(e.getValue()) + " " + e.getKey())
                        .collect(Collectors.joining(", "))));
        console.line(String.format(Locale.ROOT,
                "  elapsed             %s in all: infrastructure %s, Payara %s, placing orders %s (%s/s),"
                        + " last delivery %s later",
                Console.seconds(elapsedNanos), Console.seconds(r.infrastructureNanos()),
                Console.seconds(r.payaraNanos()), Console.seconds(r.loadNanos()),
                Console.count(Math.round(r.placed() / Math.max(r.loadNanos() / 1e9, 1e-3))),
                Console.seconds(r.deliveryTailNanos())));
        if (!r.complete()) {
            if (r.payaraDied()) {
                console.line("  Payara Micro exited during the run: see " + Demo.relative(work.resolve("payara.log")));
            }
            if (r.kafkaFailure() != null) {
                console.line("  the Kafka receiver failed: " + r.kafkaFailure());
            }
            long malformed = http.malformed() + kafka.malformed();
            if (malformed > 0) {
                console.line("  " + malformed + " messages arrived without x-outbox-id or with an unreadable payload");
            }
            console.line("  NOT everything was delivered within " + options.timeout().toSeconds() + " s: see the"
                    + " outbox table (status, last_error) and " + Demo.relative(work.resolve("payara.log")));
        }
        console.line(String.format(Locale.ROOT, "demo: delivered %d/%d http, %d/%d kafka, duplicates %d",
                r.httpDelivered(), n, r.kafkaDelivered(), n, http.duplicates() + kafka.duplicates()));
    }

    private static String counter(Result r, String name) {
        Double value = r.counters().get(name);
        return value == null ? "?" : Console.count(Math.round(value));
    }

    private static String deliveryLine(String label, Tally tally, int delivered, int expected, Instant measuredFrom) {
        String latencies = latencies(tally, measuredFrom);
        long other = tally.orders() - delivered;
        return "  " + label + Console.count(delivered) + "/" + Console.count(expected) + ", duplicates "
                + Console.count(tally.duplicates()) + ", " + latencies
                + (other > 0 ? " (" + Console.count(other) + " messages of other orders)" : "");
    }

    private String feedLine(FeedFollowers.Outcome outcome, int expected, Instant measuredFrom) {
        String order = outcome.outOfOrder() == 0 ? "in order"
                : Console.count(outcome.outOfOrder()) + " clients OUT OF ORDER, first: " + outcome.firstDisorder();
        return "  feed clients        " + outcome.clients() + " received " + Console.count(outcome.fewest()) + "/"
                + Console.count(expected) + " each (fewest), " + order + ", " + Console.count(outcome.received())
                + " events in all at " + Console.count(Math.round(outcome.perSecond())) + "/s, "
                + latencies(feed, measuredFrom);
    }

    /** The p50, p95 and p99 latency of {@code tally}'s first arrivals of orders created since {@code measuredFrom}. */
    private static String latencies(Tally tally, Instant measuredFrom) {
        double[] latency = tally.latencyMillis(measuredFrom, 50, 95, 99);
        return latency.length == 0 ? "no latency (nothing arrived)"
                : String.format(Locale.ROOT, "latency p50 %s, p95 %s, p99 %s", millis(latency[0]), millis(latency[1]),
                        millis(latency[2]));
    }

    private static String millis(double value) {
        return value >= 100 ? String.format(Locale.ROOT, "%,.0f ms", value) : String.format(Locale.ROOT, "%.1f ms", value);
    }
}
