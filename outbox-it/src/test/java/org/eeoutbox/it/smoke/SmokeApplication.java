package org.eeoutbox.it.smoke;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** Activates JAX-RS under {@code /api} in the smoke WAR. */
@ApplicationPath("api")
public class SmokeApplication extends Application {
}
