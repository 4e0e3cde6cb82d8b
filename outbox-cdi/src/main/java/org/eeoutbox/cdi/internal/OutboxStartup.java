package org.eeoutbox.cdi.internal;

import jakarta.enterprise.inject.spi.CDI;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;

/**
 * Starts the outbox when the web application starts and stops it when the application stops.
 * Registered by this jar's {@code META-INF/web-fragment.xml}.
 *
 * <p>Not a CDI {@code @Initialized(ApplicationScoped.class)} observer: Payara fires that event
 * while loading the application, before the application's {@code @DataSourceDefinition}
 * DataSources are bound, so the outbox could not reach its DataSource yet. A failure here fails
 * the deployment.
 */
public class OutboxStartup implements ServletContextListener {

    @Override
    public void contextInitialized(ServletContextEvent event) {
        CDI.current().select(OutboxRuntime.class).get().start();
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        CDI.current().select(OutboxRuntime.class).get().stop();
    }
}
