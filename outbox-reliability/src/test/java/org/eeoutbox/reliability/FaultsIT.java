package org.eeoutbox.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.eeoutbox.demo.Demo;
import org.eeoutbox.demo.OrderClients;
import org.eeoutbox.demo.PayaraMicro;
import org.eeoutbox.demo.Webhooks;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The faults of README.md, "Guarantees": each run ends with every published message delivered at
 * least once, nothing else delivered, every duplicate under its first copy's {@code x-outbox-id},
 * and no row left pending. The example order service runs on real Payara Micro processes; each
 * order publishes {@code order.created} to a webhook and to Kafka in its transaction. Counts scale
 * with {@code -Dreliability.scale}; outage lengths do not.
 */
class FaultsIT {

    private static final int CLIENT_THREADS = 8;
    private static final Duration OUTAGE = Duration.ofSeconds(30);
    private static Rig rig;

    @BeforeAll
    static void startRig() throws Exception {
        rig = Rig.get();
    }

    @Test
    void payaraKilledThreeTimesMidRunLosesNothing() throws Exception {
        int orders = rig.scaled(10_000, 200); // two messages each
        try (Run run = new Run(rig, "payara-killed", 1)) {
            // Webhooks in lease mode (issue 16): a killed instance's leases expire and another
            // claim takes their entries (sent again: the leases in flight); Kafka stays in lock mode,
            // whose row locks end with the dead sessions.
            run.settings(0).put("outbox.processor.claim-mode.http", "lease");
            // A lease must exceed two worst-case webhook batches (2 x 15 s with the demo's timeouts).
            run.settings(0).put("outbox.processor.lease", "40s");
            run.startAndAwait(0);
            List<OrderClients> clients = run.placeOrders(orders, CLIENT_THREADS);
            List<Long> pendingAtKill = new ArrayList<>();
            long faultEnd = 0;
            for (int kill = 1; kill <= 3; kill++) {
                Run.awaitPlaced(clients, orders * kill / 4);
                pendingAtKill.add(run.statuses().getOrDefault("PENDING", 0L));
                run.instances.get(0).kill();
                run.startAndAwait(0);
                faultEnd = System.nanoTime();
            }
            Run.join(clients);
            long loadEnd = System.nanoTime();
            long drained = run.awaitDrained(0);
            Run.Figures figures = run.assertNothingLost(Set.of());
            assertTrue(pendingAtKill.stream().anyMatch(pending -> pending > 0),
                    "no message was pending at any kill: " + pendingAtKill);
            run.report(figures, "Payara Micro killed with SIGKILL 3 times and restarted, with " + pendingAtKill
                    + " messages pending at the kills; webhooks in lease mode, " + figures.webhookDuplicates()
                    + " of the duplicates", faultEnd, loadEnd, drained);
        }
    }

    @Test
    void databaseRestartedMidRunLosesNothing() throws Exception {
        int orders = rig.scaled(2_000, 100);
        try (Run run = new Run(rig, "database-restarted", 1)) {
            // Webhooks in lease mode (issue 16): their outcomes wait in memory while the database
            // is down, so none is sent again; Kafka stays in lock mode, whose batches roll back.
            run.settings(0).put("outbox.processor.claim-mode.http", "lease");
            run.settings(0).put("outbox.processor.lease", "40s");
            run.startAndAwait(0);
            List<OrderClients> clients = run.placeOrders(orders, CLIENT_THREADS);
            Run.awaitPlaced(clients, orders / 2);
            long pending = run.statuses().getOrDefault("PENDING", 0L);
            long down = System.nanoTime();
            rig.postgres.stop();
            TimeUnit.SECONDS.sleep(5);
            rig.postgres.start();
            long faultEnd = System.nanoTime();
            Run.join(clients);
            long loadEnd = System.nanoTime();
            long drained = run.awaitDrained(0);
            Run.Figures figures = run.assertNothingLost(Set.of());
            run.report(figures, String.format(Locale.ROOT, "PostgreSQL stopped for %.1f s and started again on the"
                    + " same data directory and port, with %d messages pending; webhooks in lease mode, %d of the"
                    + " duplicates", (faultEnd - down) / 1e9, pending, figures.webhookDuplicates()),
                    faultEnd, loadEnd, drained);
            assertEquals(0, figures.webhookDuplicates(), "a lease-mode webhook was sent again after the restart");
        }
    }

    @Test
    void brokerStoppedAndReceiverAnswering503For30SecondsLoseNothing() throws Exception {
        int orders = rig.scaled(3_000, 100);
        try (Run run = new Run(rig, "broker-and-receiver-down", 1)) {
            run.startAndAwait(0);
            List<OrderClients> clients = run.placeOrders(orders, CLIENT_THREADS);
            Run.awaitPlaced(clients, orders / 4);
            rig.broker.stop();
            run.receivers.forEach(receiver -> receiver.down(true));
            TimeUnit.NANOSECONDS.sleep(OUTAGE.toNanos());
            long pending = run.statuses().getOrDefault("PENDING", 0L);
            rig.broker.restart();
            run.receivers.forEach(receiver -> receiver.down(false));
            long faultEnd = System.nanoTime();
            Run.join(clients);
            long loadEnd = System.nanoTime();
            long drained = run.awaitDrained(0);
            Run.Figures figures = run.assertNothingLost(Set.of());
            assertTrue(pending > 0, "nothing was pending at the end of the outage");
            run.report(figures, "Kafka broker stopped and the webhook receiver answering 503, both for "
                    + OUTAGE.toSeconds() + " s, with " + pending + " messages pending at the end", faultEnd, loadEnd,
                    drained);
        }
    }

    @Test
    void threeInstancesSharingTheDatabaseDeliverEachMessageExactlyOnce() throws Exception {
        int orders = rig.scaled(15_000, 300);
        try (Run run = new Run(rig, "three-instances", 3)) {
            // Both claim modes on one table (issue 16): the first instance claims webhooks with
            // row locks, the other two with leases (their default); each must skip what the others hold.
            run.settings(0).put("outbox.processor.claim-mode.http", "lock");
            // One instance creates the tables; the others start once they exist.
            run.startAndAwait(0);
            List<PayaraMicro> others = List.of(run.start(1), run.start(2));
            for (PayaraMicro payara : others) {
                payara.awaitReady(Run.PAYARA_START_TIMEOUT);
            }
            long loadStart = System.nanoTime();
            List<OrderClients> clients = run.placeOrders(orders, 3);
            Run.join(clients);
            long loadEnd = System.nanoTime();
            long drained = run.awaitDrained(0);
            Run.Figures figures = run.assertNothingLost(Set.of());
            assertEquals(0, figures.duplicates(), "a message was delivered twice without any crash");

            // Which instance delivered: each has a webhook receiver of its own (its
            // outbox.http.service.webhooks.url), and its own outbox_delivered_total counter.
            List<String> shares = new ArrayList<>();
            long countedDeliveries = 0;
            for (int i = 0; i < 3; i++) {
                long webhooks = run.receivers.get(i).accepted();
                Double delivered = run.instances.get(i).outboxCounters().get("outbox_delivered");
                assertNotNull(delivered, "instance " + (i + 1) + " has no outbox_delivered counter");
                countedDeliveries += delivered.longValue();
                assertTrue(delivered >= figures.published() * 0.05,
                        "instance " + (i + 1) + " delivered only " + delivered + " of " + figures.published());
                shares.add(String.format(Locale.ROOT, "instance %d %,d (%.0f %%: %,d webhooks, %,d Kafka)", i + 1,
                        delivered.longValue(), 100.0 * delivered / figures.published(), webhooks,
                        delivered.longValue() - webhooks));
            }
            assertEquals(figures.published(), countedDeliveries, "the instances' delivered counters");
            run.report(figures, "3 Payara Micro instances on one database, no fault; delivered by " + shares,
                    null, loadEnd, drained);
            rig.report("three-instances: %,d orders placed in %.1f s", orders, (loadEnd - loadStart) / 1e9);
        }
    }

    @Test
    void poisonMessageFailsWithoutDelayingTheOthers() throws Exception {
        int orders = rig.scaled(1_000, 100);
        try (Run run = new Run(rig, "poison-message", 1)) {
            run.receivers.get(0).respondWith(Webhooks.onlyAt(Demo.WEBHOOK_PATH,
                    request -> request.body().contains("\"customer\":\"poison\"") ? 400 : 204));
            run.startAndAwait(0);
            List<OrderClients> clients = run.placeOrders(orders, CLIENT_THREADS);
            Run.awaitPlaced(clients, orders / 5);
            String poison = new OrderClients(run.instances.get(0).baseUrl(), 0).place("poison", BigDecimal.TEN);
            assertNotNull(poison, "the poison order was not placed");
            Run.join(clients);
            long loadEnd = System.nanoTime();
            long drained = run.awaitDrained(1);

            String poisonId;
            try (Connection connection = rig.database.admin().getConnection();
                    PreparedStatement select = connection.prepareStatement("SELECT id, status, attempts, last_error"
                            + " FROM outbox WHERE delivery_type = 'http' AND payload LIKE ?")) {
                select.setString(1, "%\"id\":\"" + poison + "\"%");
                try (ResultSet row = select.executeQuery()) {
                    assertTrue(row.next(), "no webhook row for the poison order");
                    poisonId = row.getString(1);
                    assertEquals("FAILED", row.getString(2));
                    assertEquals(1, row.getInt(3), "a permanent failure is never retried");
                    assertTrue(row.getString(4).startsWith("HTTP 400 from service 'webhooks'"), row.getString(4));
                }
            }
            Run.Figures figures = run.assertNothingLost(Set.of(poisonId));
            double[] latency = run.http.latencyMillis(50, 99);
            run.report(figures, String.format(Locale.ROOT, "one webhook answered 400 every time: FAILED after 1"
                    + " attempt, its Kafka copy delivered; the other webhooks' latency p50 %.0f ms, p99 %.0f ms",
                    latency[0], latency[1]), null, loadEnd, drained);
        }
    }
}
