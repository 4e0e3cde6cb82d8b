package org.eeoutbox.feed.sse;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eeoutbox.config.Configuration;

/**
 * The application's {@link FeedSettings}, read from MicroProfile Config on first use and kept (this
 * jar lives in the application's {@code WEB-INF/lib}, so one copy per application). Invalid
 * settings, which the deployment check normally refuses, leave the resource off: it fails closed.
 * Thread-safe.
 */
final class ConfiguredFeedSettings {

    private static final Logger LOG = System.getLogger(ConfiguredFeedSettings.class.getName());
    private static volatile FeedSettings current;

    private ConfiguredFeedSettings() {
    }

    /** Returns the settings of the calling application. */
    static FeedSettings get() {
        FeedSettings read = current;
        if (read == null) {
            Config config = ConfigProvider.getConfig(Thread.currentThread().getContextClassLoader());
            Configuration configuration = Configuration.of(name -> config.getOptionalValue(name, String.class),
                    config::getPropertyNames);
            read = FeedSettings.read(configuration);
            if (!configuration.problems().isEmpty()) {
                LOG.log(Level.ERROR, "The outbox feed resource stays off: {0}", configuration.problems());
            }
            current = read;
        }
        return read;
    }
}
