package org.eeoutbox.example;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** Serves the order API at the application's root: {@code /orders}. */
@ApplicationPath("/")
public class OrdersApplication extends Application {
}
