package org.eeoutbox.cdi;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessBean;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eeoutbox.cdi.internal.ApplicationBeans;
import org.eeoutbox.cdi.internal.DeploymentConfiguration;
import org.eeoutbox.cdi.internal.OutboxHealth;
import org.eeoutbox.cdi.internal.OutboxMetrics;
import org.eeoutbox.cdi.internal.OutboxRuntime;
import org.eeoutbox.cdi.internal.RequiresNewTransactions;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.config.OutboxConfigurationException;

/**
 * The outbox's CDI extension, registered through {@code META-INF/services}: adds the outbox's
 * beans (the library needs no {@code beans.xml}), records the application's beans, and reads and
 * checks the whole {@code outbox.*} configuration once, when the deployment is validated. Every
 * bad property fails the deployment, all listed at once; every unknown {@code outbox.*} key is
 * logged as a WARNING naming the closest known property.
 *
 * <p>The MicroProfile Metrics and Health integrations are added only when their API is present
 * (WildFly's standalone.xml has neither): no other class of the library references their types.
 */
public class OutboxExtension implements Extension {

    private static final Logger LOG = System.getLogger(OutboxExtension.class.getName());
    private static final String METRICS_API = "org.eclipse.microprofile.metrics.MetricRegistry";
    private static final String HEALTH_API = "org.eclipse.microprofile.health.HealthCheck";

    private final ApplicationBeans applicationBeans = new ApplicationBeans();
    private volatile DeploymentConfiguration configuration;

    /**
     * Returns the configuration checked at deployment; for the outbox's runtime, not for
     * applications.
     *
     * @throws IllegalStateException before the deployment is validated
     */
    public DeploymentConfiguration configuration() {
        DeploymentConfiguration read = configuration;
        if (read == null) {
            throw new IllegalStateException("The outbox configuration is read when the deployment is validated");
        }
        return read;
    }

    void registerBeans(@Observes BeforeBeanDiscovery discovery, BeanManager beans) {
        discovery.addAnnotatedType(beans.createAnnotatedType(OutboxRuntime.class), OutboxRuntime.class.getName());
        discovery.addAnnotatedType(beans.createAnnotatedType(RequiresNewTransactions.class),
                RequiresNewTransactions.class.getName());
        if (isPresent(METRICS_API)) {
            discovery.addAnnotatedType(beans.createAnnotatedType(OutboxMetrics.class), OutboxMetrics.class.getName());
        } else {
            LOG.log(Level.INFO, "MicroProfile Metrics is not available: the outbox publishes no metrics");
        }
        if (isPresent(HEALTH_API)) {
            discovery.addAnnotatedType(beans.createAnnotatedType(OutboxHealth.class), OutboxHealth.class.getName());
        } else {
            LOG.log(Level.INFO, "MicroProfile Health is not available: the outbox reports no health checks");
        }
    }

    void collectBean(@Observes ProcessBean<?> event) {
        applicationBeans.add(event.getBean());
    }

    void validateConfiguration(@Observes AfterDeploymentValidation validation) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        Config config = ConfigProvider.getConfig(loader);
        DeploymentConfiguration read = DeploymentConfiguration.read(
                Configuration.of(name -> config.getOptionalValue(name, String.class), config::getPropertyNames),
                loader, applicationBeans);
        read.unknownKeys().forEach(warning -> LOG.log(Level.WARNING, warning));
        if (!read.problems().isEmpty()) {
            // The message alone: the server prints a cause's message again after it.
            validation.addDeploymentProblem(
                    new DeploymentException(new OutboxConfigurationException(read.problems()).getMessage()));
            return;
        }
        configuration = read;
    }

    private static boolean isPresent(String className) {
        try {
            Class.forName(className, false, Thread.currentThread().getContextClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
