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
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Registers the outbox's beans (the library needs no {@code beans.xml}), records the application's
 * beans ({@link ApplicationBeans}) and fails the deployment when the configuration is invalid,
 * listing every bad property.
 *
 * <p>The MicroProfile Metrics integration is added only when the Metrics API is present (WildFly
 * ships none): no class of the library references Metrics types otherwise.
 */
public class OutboxExtension implements Extension {

    private static final Logger LOG = System.getLogger(OutboxExtension.class.getName());
    private static final String METRICS_API = "org.eclipse.microprofile.metrics.MetricRegistry";

    private final ApplicationBeans applicationBeans = new ApplicationBeans();

    /** Returns the application's beans, complete once the deployment is validated. */
    ApplicationBeans applicationBeans() {
        return applicationBeans;
    }

    void registerBeans(@Observes BeforeBeanDiscovery discovery, BeanManager beans) {
        discovery.addAnnotatedType(beans.createAnnotatedType(OutboxRuntime.class), OutboxRuntime.class.getName());
        discovery.addAnnotatedType(beans.createAnnotatedType(TransportDeliverers.class),
                TransportDeliverers.class.getName());
        discovery.addAnnotatedType(beans.createAnnotatedType(RequiresNewTransactions.class),
                RequiresNewTransactions.class.getName());
        if (isPresent(METRICS_API)) {
            discovery.addAnnotatedType(beans.createAnnotatedType(OutboxMetrics.class), OutboxMetrics.class.getName());
        } else {
            LOG.log(Level.INFO, "MicroProfile Metrics is not available: the outbox publishes no metrics");
        }
    }

    void collectBean(@Observes ProcessBean<?> event) {
        applicationBeans.add(event.getBean());
    }

    void validateConfiguration(@Observes AfterDeploymentValidation validation) {
        Config config = ConfigProvider.getConfig(Thread.currentThread().getContextClassLoader());
        // Both checks run, so that one failed deployment lists every bad property.
        List<String> problems = new ArrayList<>();
        try {
            OutboxSettings.read(name -> config.getOptionalValue(name, String.class));
        } catch (OutboxConfigurationException e) {
            problems.addAll(e.problems());
        }
        try {
            TransportDeliverers.validate(config);
        } catch (OutboxConfigurationException e) {
            problems.addAll(e.problems());
        }
        if (!problems.isEmpty()) {
            OutboxConfigurationException invalid = new OutboxConfigurationException(problems);
            validation.addDeploymentProblem(new DeploymentException(invalid.getMessage(), invalid));
        }
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
