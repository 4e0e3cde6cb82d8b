package org.eeoutbox.it.support;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import org.awaitility.core.ConditionTimeoutException;
import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.container.spi.client.deployment.DeploymentDescription;
import org.jboss.arquillian.container.spi.client.protocol.metadata.HTTPContext;
import org.jboss.arquillian.container.spi.client.protocol.metadata.ProtocolMetaData;
import org.jboss.arquillian.container.spi.context.annotation.DeploymentScoped;
import org.jboss.arquillian.container.spi.event.container.AfterDeploy;
import org.jboss.arquillian.container.spi.event.container.BeforeDeploy;
import org.jboss.arquillian.core.api.InstanceProducer;
import org.jboss.arquillian.core.api.annotation.Inject;
import org.jboss.arquillian.core.api.annotation.Observes;
import org.jboss.arquillian.core.spi.LoadableExtension;
import org.jboss.shrinkwrap.api.Archive;

/**
 * Starts Payara Micro once more when it failed to start for a reason of its own, known and not the
 * outbox's (test JVM only; registered in
 * {@code META-INF/services/org.jboss.arquillian.core.spi.LoadableExtension}).
 *
 * <p>Why: about one Payara Micro start in 350 on these machines fails in its security service
 * ("{@value #PAYARA_SECURITY_FAILURE}", message NCLS-SECURITY-01144: a
 * {@code NullPointerException} because the main thread's context class loader is null). That
 * instance deploys nothing, the connector does not notice, and the test gets a URL without a
 * context path. With one start per IT class and database, a CI run starts Payara Micro about 50
 * times, so roughly one run in seven failed on it.
 *
 * <p>Only that failure is retried, once, and logged: a deployment that fails for any other reason
 * (the invalid configurations some tests deploy on purpose, a defect of the outbox) is left as the
 * connector reported it. The Payara Micro connector starts the server in its deploy step and stops
 * it in its undeploy step, so a retry is an undeploy and a deploy of the same archive.
 */
public final class PayaraStartRetried implements LoadableExtension {

    /** What Payara Micro logs when its security service fails to start. */
    static final String PAYARA_SECURITY_FAILURE = "Error while installing policy provider";

    private static final Logger LOG = System.getLogger(PayaraStartRetried.class.getName());
    /** The end of Payara Micro's start in its log: the security failure, if any, is written before it. */
    private static final String PAYARA_READY = " ready in ";
    /** How long the server may take to write its log once the connector saw it start. */
    private static final Duration LOG_PATIENCE = Duration.ofSeconds(5);

    @Override
    public void register(ExtensionBuilder builder) {
        builder.observer(Observer.class);
    }

    /** The observer: marks the server's log before each deployment and reads it after. */
    public static final class Observer {

        @Inject
        @DeploymentScoped
        private InstanceProducer<ProtocolMetaData> protocolMetaData;

        private long logMark;

        public void markTheLog(@Observes BeforeDeploy event) {
            if (isPayaraMicro(event.getDeployableContainer())) {
                logMark = ServerLog.current().mark();
            }
        }

        public void retryAFailedStart(@Observes AfterDeploy event) throws Exception {
            if (!isPayaraMicro(event.getDeployableContainer()) || !deployedNothing(protocolMetaData.get())
                    || !securityFailedSince(logMark)) {
                return;
            }
            DeploymentDescription deployment = event.getDeployment();
            LOG.log(Level.WARNING, "Payara Micro failed to start its security service (\"{0}\") and deployed nothing;"
                    + " starting it once more for {1}", PAYARA_SECURITY_FAILURE, deployment.getName());
            DeployableContainer<?> container = event.getDeployableContainer();
            Archive<?> archive = deployment.getTestableArchive() != null
                    ? deployment.getTestableArchive() : deployment.getArchive();
            container.undeploy(archive);
            protocolMetaData.set(container.deploy(archive));
        }

        private static boolean isPayaraMicro(DeployableContainer<?> container) {
            return container.getClass().getName().startsWith("fish.payara.arquillian.");
        }

        /** Whether the connector found no servlet: the Payara Micro connector's sign of an empty server. */
        private static boolean deployedNothing(ProtocolMetaData metaData) {
            return metaData != null && metaData.getContexts(HTTPContext.class).stream()
                    .allMatch(context -> context.getServlets().isEmpty());
        }

        /** Reads the log of the start that began at {@code mark}, once it is written to its end. */
        private static boolean securityFailedSince(long mark) {
            ServerLog log = ServerLog.current();
            try {
                log.awaitAfter(mark, PAYARA_READY, LOG_PATIENCE);
            } catch (ConditionTimeoutException notWrittenYet) {
                // Judge by what is written: the failure, if any, comes before the ready line.
            }
            return log.containsAfter(mark, PAYARA_SECURITY_FAILURE);
        }
    }
}
