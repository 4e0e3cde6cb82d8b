package org.eeoutbox.it.outbox;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.eeoutbox.it.app.TestApps;
import org.eeoutbox.it.support.ServerLog;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** An invalid configuration value fails the deployment, and the failure names the property. */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class InvalidConfigurationIT {

    private static final String INVALID = "invalid-batch-size";
    private static final String PROBLEM = "outbox.processor.batch-size=0 is invalid: expected a whole number in [1, 10000]";

    @Deployment(name = INVALID, managed = false)
    static WebArchive deployment() {
        return TestApps.war(INVALID, Map.of("outbox.processor.batch-size", "0"));
    }

    @ArquillianResource
    Deployer deployer;

    /**
     * Reads the verdict in the server's log, the one place every server reports it: the WildFly
     * and Liberty connectors throw a DeploymentException for the failed deployment, the Payara
     * Micro connector notices nothing.
     */
    @Test
    void aBatchSizeOfZeroFailsTheDeploymentNamingTheProperty() throws Exception {
        ServerLog log = ServerLog.current();
        long mark = log.mark();

        try {
            deployer.deploy(INVALID);
        } catch (Exception reportedByTheConnector) {
            // Expected from the WildFly and Liberty connectors; the log below is the evidence.
        }

        String written = log.awaitAfter(mark, PROBLEM, Duration.ofSeconds(60));
        assertTrue(written.contains("Invalid outbox configuration"), log + " after the deployment:\n" + written);
        assertTrue(written.contains(PROBLEM), log + " after the deployment:\n" + written);
        assertFalse(written.contains("Outbox started"), "the outbox did not start:\n" + written);
    }
}
