package org.eeoutbox.admin.rest;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eeoutbox.config.Configuration;

/**
 * The application's {@link AdminRestSettings}, read from MicroProfile Config on first use and kept
 * (this jar lives in the application's {@code WEB-INF/lib}, so one copy per application). Invalid
 * settings, which the deployment check normally refuses, leave the API off: it fails closed.
 * Thread-safe.
 */
final class ConfiguredSettings {

    private static final Logger LOG = System.getLogger(ConfiguredSettings.class.getName());
    private static volatile AdminRestSettings current;

    private ConfiguredSettings() {
    }

    /** Returns the settings of the calling application. */
    static AdminRestSettings get() {
        AdminRestSettings read = current;
        if (read == null) {
            Config config = ConfigProvider.getConfig(Thread.currentThread().getContextClassLoader());
            Configuration configuration = Configuration.of(name -> config.getOptionalValue(name, String.class),
                    config::getPropertyNames);
            read = AdminRestSettings.read(configuration);
            if (!configuration.problems().isEmpty()) {
                LOG.log(Level.ERROR, "The outbox admin API stays off: {0}", configuration.problems());
            }
            current = read;
        }
        return read;
    }
}
