package org.eeoutbox.it.outbox;


import java.util.Map;
import org.eeoutbox.it.app.TestApps;
import org.eeoutbox.it.support.FailedDeployment;
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

    @Test
    void aBatchSizeOfZeroFailsTheDeploymentNamingTheProperty() {
        FailedDeployment.assertFailsNaming(deployer, INVALID, PROBLEM);
    }
}
