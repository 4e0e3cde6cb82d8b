package org.eeoutbox.it.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** Serves {@link OrdersResource} under {@code /api}. */
@ApplicationPath("api")
public class ItRestApplication extends Application {
}
