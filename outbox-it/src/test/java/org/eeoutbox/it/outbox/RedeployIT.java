package org.eeoutbox.it.outbox;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.eeoutbox.it.app.OpenTransactions;
import org.eeoutbox.it.app.TestApps;
import org.eeoutbox.it.support.DirectPublisher;
import org.eeoutbox.it.support.ItEnvironment;
import org.eeoutbox.testkit.HttpReceiver;
import org.eeoutbox.testkit.ReceivedRequest;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Undeploying through the server stops the outbox, and the redeployed application delivers what
 * was left. WildFly and Liberty undeploy and redeploy inside the running server, so a task, a
 * connection or a registration (metrics, CDI) that outlived the first deployment would show; the
 * Payara Micro connector stops and starts the whole process instead.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class RedeployIT {

    private static final String APP = "redeploy";

    @Deployment(name = APP, managed = false)
    static WebArchive deployment() {
        return TestApps.war(APP, Map.of("outbox.processor.interval", "100ms"));
    }

    @ArquillianResource
    Deployer deployer;

    @Test
    void afterUndeployNothingRunsAndTheRedeployedApplicationDeliversWhatWasLeft() throws Exception {
        HttpReceiver receiver = ItEnvironment.receiver();
        DataSource database = ItEnvironment.database().dataSource();
        String path = "/redeploy/" + UUID.randomUUID();
        String key = "redeploy-" + UUID.randomUUID();
        deployer.deploy(APP);
        deployer.undeploy(APP);
        awaitPayaraMicroGone();

        UUID id = DirectPublisher.publishDue(path, key);
        Thread.sleep(2000);

        assertEquals("PENDING 0", state(key), "no outbox task of the undeployed application ran");
        assertTrue(receiver.requests(path).isEmpty(), "nothing was delivered");
        try (Connection connection = database.getConnection()) {
            assertEquals(0, OpenTransactions.others(connection), "no connection holds a transaction");
        }

        deployer.deploy(APP);
        try {
            List<ReceivedRequest> received = receiver.await(path, 1, Duration.ofSeconds(60));
            assertEquals(id.toString(), received.get(0).outboxId());
            awaitState(key, "DELIVERED 1");
        } finally {
            deployer.undeploy(APP);
        }
    }

    /**
     * Waits until no Payara Micro process started by this JVM is alive. The Payara Micro connector
     * undeploys by stopping the server process and returns before the process has exited; until
     * then its outbox may still poll. WildFly and Liberty undeploy inside the running server: their
     * process stays, and there is nothing to wait for.
     */
    private static void awaitPayaraMicroGone() {
        await("the Payara Micro process to exit after the undeploy").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> ProcessHandle.current().descendants().noneMatch(process -> process.info().commandLine()
                        .map(command -> command.contains("payara-micro")).orElse(false)));
    }

    /** Returns {@code status attempts} of the entry with the deduplication key. */
    private static String state(String key) {
        String where = " FROM outbox WHERE deduplication_key = '" + key + "'";
        long delivered = ItEnvironment.database().queryForLong("SELECT COUNT(*)" + where + " AND status = 'DELIVERED'");
        long pending = ItEnvironment.database().queryForLong("SELECT COUNT(*)" + where + " AND status = 'PENDING'");
        long attempts = ItEnvironment.database().queryForLong("SELECT MAX(attempts)" + where);
        return (delivered == 1 ? "DELIVERED" : pending == 1 ? "PENDING" : "OTHER") + " " + attempts;
    }

    private static void awaitState(String key, String expected) {
        await("the outbox state of " + key).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> state(key), equalTo(expected));
    }
}
