package org.eeoutbox.it.support;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.jboss.arquillian.container.test.api.Deployer;

/** Asserts that deploying an invalid configuration fails and names the problem (test JVM only). */
public final class FailedDeployment {

    private FailedDeployment() {
    }

    /**
     * Deploys {@code deployment} (an unmanaged {@code @Deployment}) and asserts that the server's log
     * reports the outbox's configuration problem {@code problem} and that the outbox did not start.
     * Reads the verdict in the log, the one place every server reports it: the WildFly and Liberty
     * connectors throw a DeploymentException for the failed deployment, the Payara Micro connector
     * notices nothing.
     */
    public static void assertFailsNaming(Deployer deployer, String deployment, String problem) {
        ServerLog log = ServerLog.current();
        long mark = log.mark();

        try {
            deployer.deploy(deployment);
        } catch (Exception reportedByTheConnector) {
            // Expected from the WildFly and Liberty connectors; the log below is the evidence.
        }

        String written = log.awaitAfter(mark, problem, Duration.ofSeconds(60));
        assertTrue(written.contains("Invalid outbox configuration"), log + " after the deployment:\n" + written);
        assertTrue(written.contains(problem), log + " after the deployment:\n" + written);
        assertFalse(written.contains("Outbox started"), "the outbox did not start:\n" + written);
    }
}
