package org.eeoutbox.it.outbox;

import java.util.HashMap;
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

/**
 * The configuration {@link LeaseModeIT} delivers with in lease mode is refused with webhooks in
 * lock mode (chosen explicitly: lease is their default), where each batch's deliveries run inside
 * its transaction: the deployment fails naming the timeout and the fix.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class LockModeSlowReceiverIT {

    private static final String NAME = "lock-mode-slow-receiver";

    @Deployment(name = NAME, managed = false)
    static WebArchive deployment() {
        Map<String, String> properties = new HashMap<>(LeaseModeIT.SLOW_RECEIVER);
        properties.put("outbox.processor.claim-mode.http", "lock");
        return TestApps.war(NAME, properties);
    }

    @ArquillianResource
    Deployer deployer;

    @Test
    void aTransactionTimeoutShorterThanTheReceiversFailsTheDeploymentNamingLeaseModeAsTheFix() {
        FailedDeployment.assertFailsNaming(deployer, NAME, "outbox.processor.transaction-timeout=PT10S is too short: "
                + "a batch of 100 'http' deliveries may take up to PT1M5S (claim mode lock); raise "
                + "outbox.processor.transaction-timeout, lower outbox.processor.batch-size or the transport's timeouts, "
                + "or claim it with outbox.processor.claim-mode.http=lease");
    }
}
