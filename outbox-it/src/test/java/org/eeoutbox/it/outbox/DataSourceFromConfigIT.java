package org.eeoutbox.it.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eeoutbox.it.app.TestApps;
import org.eeoutbox.it.support.DirectPublisher;
import org.eeoutbox.it.support.ItConfig;
import org.eeoutbox.it.support.ItEnvironment;
import org.eeoutbox.it.support.ServerLog;
import org.eeoutbox.testkit.ReceivedRequest;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code ${MPCONFIG=key}} as the user and password of the application's {@code @DataSourceDefinition},
 * with the values only in the WAR's own {@code META-INF/microprofile-config.properties}
 * ({@link ItEnvironment#dataSourceClassWithLoginFromConfig()}). The database checks the password
 * ({@code ServerLogin}), so only a resolved, right login connects.
 *
 * <p>Where the server resolves it ({@value ItConfig#SERVER_DATASOURCE_MPCONFIG}{@code =true}, Payara):
 * the right values connect and deliver, a wrong password fails the connection. Where it does not
 * (WildFly, Open Liberty): the server passes the text on as it is, and the database refuses the user
 * named {@code ${MPCONFIG=it.datasource.user}}, whatever the file says.
 *
 * <p>Each verdict of a failed deployment is read in the server's log, as {@link InvalidConfigurationIT}
 * does: the outbox's startup check connects, and the database's refusal fails the deployment.
 *
 * <p>Runs against PostgreSQL only: what the server does with the annotation does not depend on the
 * database, and Open Liberty's connector waits out its {@code appDeployTimeout} (3 minutes) for each
 * failed deployment. For the same reason the wrong password is tried only where the file is read.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class DataSourceFromConfigIT {

    private static final String RIGHT = "mpconfig-login";
    private static final String WRONG = "mpconfig-wrong-password";
    private static final String UNRESOLVED_USER = "${MPCONFIG=" + ItEnvironment.USER_KEY + "}";

    @Deployment(name = RIGHT, managed = false)
    static WebArchive rightLogin() {
        return TestApps.war(RIGHT, ItEnvironment.loginAsConfig(), ItEnvironment.dataSourceClassWithLoginFromConfig());
    }

    @Deployment(name = WRONG, managed = false)
    static WebArchive wrongPassword() {
        Map<String, String> login = new HashMap<>(ItEnvironment.loginAsConfig());
        login.put(ItEnvironment.PASSWORD_KEY, "not-" + login.get(ItEnvironment.PASSWORD_KEY));
        return TestApps.war(WRONG, login, ItEnvironment.dataSourceClassWithLoginFromConfig());
    }

    @ArquillianResource
    Deployer deployer;

    @BeforeEach
    void onPostgreSqlOnly() {
        assumeTrue("postgresql".equals(ItEnvironment.databaseName()), "the server's behaviour, the same on every database");
    }

    @Test
    void theRightLoginInTheApplicationsConfigConnectsAndDeliversWhereTheServerResolvesIt() throws Exception {
        if (!serverResolves()) {
            assertDeploymentRefusedAs(RIGHT, UNRESOLVED_USER);
            return;
        }
        String path = "/mpconfig/" + UUID.randomUUID();
        deployer.deploy(RIGHT);
        try {
            UUID id = DirectPublisher.publishDue(path, "mpconfig-" + UUID.randomUUID());

            List<ReceivedRequest> received = ItEnvironment.receiver().await(path, 1, Duration.ofSeconds(60));
            assertEquals(id.toString(), received.get(0).outboxId());
        } finally {
            deployer.undeploy(RIGHT);
        }
    }

    @Test
    void aWrongPasswordInTheApplicationsConfigFailsTheConnection() {
        assumeTrue(serverResolves(), "the server does not read the file at all: the test above shows it");
        assertDeploymentRefusedAs(WRONG, ItEnvironment.loginAsConfig().get(ItEnvironment.USER_KEY));
    }

    /** Deploys {@code name} and asserts that the database refused {@code user} and the outbox did not start. */
    private void assertDeploymentRefusedAs(String name, String user) {
        ServerLog log = ServerLog.current();
        long mark = log.mark();
        String refusal = refusalOf(user);
        try {
            deployer.deploy(name);
        } catch (Exception reportedByTheConnector) {
            // Expected from the WildFly and Liberty connectors; the log below is the evidence.
        }
        try {
            String written = log.awaitAfter(mark, refusal, Duration.ofSeconds(60));
            assertTrue(written.contains(refusal), log + " after the deployment:\n" + written);
            assertFalse(written.contains("Outbox started"), "the outbox did not start:\n" + written);
        } finally {
            undeployQuietly(name);
        }
    }

    /**
     * The database's words for refusing {@code user}: MySQL's for any failed login; PostgreSQL's for
     * a wrong password of a known user or for an unknown user ({@value #UNRESOLVED_USER} is unknown).
     */
    private static String refusalOf(String user) {
        if ("mysql".equals(ItEnvironment.databaseName())) {
            return "Access denied for user '" + user + "'";
        }
        return UNRESOLVED_USER.equals(user) ? "role \"" + user + "\" does not exist"
                : "password authentication failed for user \"" + user + "\"";
    }

    private static boolean serverResolves() {
        return Boolean.parseBoolean(System.getProperty(ItConfig.SERVER_DATASOURCE_MPCONFIG, "true"));
    }

    private void undeployQuietly(String name) {
        try {
            deployer.undeploy(name);
        } catch (RuntimeException notDeployed) {
            // A failed deployment may be gone already; nothing is left to undeploy then.
        }
    }
}
