package org.eeoutbox.reliability;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import org.eeoutbox.demo.Demo;
import org.eeoutbox.demo.PayaraMicro;
import org.eeoutbox.demo.Webhooks;
import org.eeoutbox.testkit.HttpReceiver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Per-key ordering (docs/ordering.md) on real Payara Micro processes: 3 instances of the example
 * service on one database, 4 workers each, the steps of many orders published with the order as
 * ordering key by 8 client threads in a random interleaving of the keys, each step to a random
 * instance, and every webhook receiver answering 503 to a random 20 % of the deliveries. Each
 * key's first arrivals must come in sequence order and be exactly the key's published sequences;
 * a repeat is allowed only of the key's head (the crash window). Counts scale with
 * {@code -Dreliability.scale}.
 */
class OrderingFaultsIT {

    private static final int INSTANCES = 3;
    private static final int CLIENT_THREADS = 8;
    private static final int STEPS_PER_KEY = 100;
    private static final double REFUSED_SHARE = 0.2;
    private static Rig rig;

    @BeforeAll
    static void startRig() throws Exception {
        rig = Rig.get();
    }

    @Test
    void threeInstancesKeepEachKeysOrderWhileTheReceiverRefusesAFifth() throws Exception {
        runKeyedSteps("ordering-three-instances", 0);
    }

    @Test
    void anInstanceKilledTwiceMidRunBreaksNoKeysOrder() throws Exception {
        runKeyedSteps("ordering-instance-killed", 2);
    }

    /** Publishes the steps on 3 instances, killing and restarting instance 2 {@code kills} times. */
    private void runKeyedSteps(String name, int kills) throws Exception {
        // The 500 keys x 100 steps is scale 10: at ~100 publishes/s on 2 cores it would take
        // 8 min to publish. Scale 1 keeps each key's depth of 100 and takes a tenth of the keys.
        int keys = rig.scaled(50, 5);
        int stepsPerKey = STEPS_PER_KEY;
        try (Run run = new Run(rig, name, INSTANCES)) {
            for (HttpReceiver receiver : run.receivers) {
                receiver.respondWith(Webhooks.onlyAt(Demo.WEBHOOK_PATH,
                        request -> ThreadLocalRandom.current().nextDouble() < REFUSED_SHARE ? 503 : 204));
            }
            // One instance creates the tables; the others start once they exist.
            run.startAndAwait(0);
            List<PayaraMicro> others = List.of(run.start(1), run.start(2));
            for (PayaraMicro payara : others) {
                payara.awaitReady(Run.PAYARA_START_TIMEOUT);
            }
            List<String> baseUrls = run.instances.stream().map(PayaraMicro::baseUrl).toList();
            KeyedStepClients clients = new KeyedStepClients(baseUrls, keys, stepsPerKey, 17);
            long loadStart = System.nanoTime();
            clients.start(CLIENT_THREADS);
            List<Long> pendingAtKill = new ArrayList<>();
            Long faultEnd = null;
            for (int kill = 1; kill <= kills; kill++) {
                // At a quarter and a half of the steps: a restart takes long enough for the clients
                // to publish most of the rest on the other two instances.
                int due = clients.total() * kill / (kills + 2);
                // No time limit: the clients finish in any case.
                await().forever().pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                        .until(() -> clients.accepted() >= due || clients.done());
                pendingAtKill.add(run.statuses().getOrDefault("PENDING", 0L));
                run.instances.get(1).kill();
                run.startAndAwait(1);
                faultEnd = System.nanoTime();
            }
            clients.join();
            long loadEnd = System.nanoTime();
            long drained = run.awaitDrained(0);
            Run.Figures figures = run.assertKeyOrderKeptNothingLost();
            String what = String.format(Locale.ROOT, "%,d keys x %,d steps from %d threads on %d instances (4 workers"
                    + " each), receivers answering 503 to %.0f %% at random; first arrivals of every key in sequence"
                    + " order, %,d repeats, all of their key's head; %,d client requests retried", keys, stepsPerKey,
                    CLIENT_THREADS, INSTANCES, REFUSED_SHARE * 100, run.keyOrder.repeatsOfHead(), clients.failed());
            if (kills > 0) {
                assertTrue(pendingAtKill.stream().anyMatch(pending -> pending > 0),
                        "no message was pending at any kill: " + pendingAtKill);
                what += "; instance 2 killed with SIGKILL " + kills + " times and restarted, with " + pendingAtKill
                        + " messages pending at the kills";
            }
            run.report(figures, what, faultEnd, loadEnd, drained);
            rig.report("%s: %,d steps published in %.1f s", name, clients.total(), (loadEnd - loadStart) / 1e9);
        }
    }
}
