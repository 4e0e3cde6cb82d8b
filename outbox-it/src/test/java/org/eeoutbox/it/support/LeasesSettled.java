package org.eeoutbox.it.support;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import org.eeoutbox.testkit.TestDatabase;
import org.jboss.arquillian.container.spi.event.container.BeforeUnDeploy;
import org.jboss.arquillian.core.api.annotation.Observes;
import org.jboss.arquillian.core.spi.LoadableExtension;

/**
 * Gives each deployment the time to write the outcomes of the deliveries it has in flight before
 * it is undeployed (test JVM only; registered in
 * {@code META-INF/services/org.jboss.arquillian.core.spi.LoadableExtension}).
 *
 * <p>Why: webhooks are leased by default, and the Payara Micro connector ends a deployment by
 * stopping the server process, where the application's own stop does not get to run. An entry
 * delivered under a lease whose outcome was not yet written then keeps its lease (two minutes by
 * default) and stays PENDING that long, which the next IT class sees in its readiness and counts
 * (seen in CI: {@code AdminApiIT}'s readiness on Payara with MySQL found an entry pending for 1 min
 * 57 s, just under the lease, after a class whose tests end as the receiver gets its requests,
 * before the database says DELIVERED). Lock mode has no such tail: the database rolls back the
 * claim of a process that ends.
 *
 * <p>This waits, never fails: a lease that outlives the wait is logged, and the test that cares
 * (readiness) says what it found.
 */
public final class LeasesSettled implements LoadableExtension {

    private static final Logger LOG = System.getLogger(LeasesSettled.class.getName());
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final long POLL_MILLIS = 100;

    @Override
    public void register(ExtensionBuilder builder) {
        builder.observer(BeforeUndeploy.class);
    }

    /** The observer: waits until no outbox entry holds a live lease, or {@link #PATIENCE} has passed. */
    public static final class BeforeUndeploy {

        public void awaitLeasesSettled(@Observes BeforeUnDeploy event) throws InterruptedException {
            TestDatabase database = ItEnvironment.database();
            String now = database.name().equals("postgresql") ? "statement_timestamp()" : "UTC_TIMESTAMP(6)";
            String leased = "SELECT COUNT(*) FROM outbox WHERE status = 'PENDING' AND lease_expires_at > " + now;
            long deadline = System.nanoTime() + PATIENCE.toNanos();
            long count;
            try {
                while ((count = database.queryForLong(leased)) > 0 && System.nanoTime() - deadline < 0) {
                    Thread.sleep(POLL_MILLIS);
                }
            } catch (IllegalStateException noOutboxTable) {
                return; // the deployment failed before it created its table: nothing can be in flight
            }
            if (count > 0) {
                LOG.log(Level.WARNING, "{0} outbox entries still leased {1} after undeploying {2} began",
                        count, PATIENCE, event.getDeployment().getName());
            }
        }
    }
}
