package org.eeoutbox.example;

import jakarta.inject.Inject;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;
import java.sql.SQLException;

/**
 * Creates the orders table when the application starts (the outbox creates its own table, since
 * {@code outbox.schema.create=true}). A servlet listener rather than a CDI startup observer: the
 * application's {@code @DataSourceDefinition} DataSource is bound only by then.
 */
@WebListener
public class OrderSchema implements ServletContextListener {

    @Inject
    OrderRepository orders;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        try {
            orders.createTableIfMissing();
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot create the orders table: " + e.getMessage(), e);
        }
    }
}
