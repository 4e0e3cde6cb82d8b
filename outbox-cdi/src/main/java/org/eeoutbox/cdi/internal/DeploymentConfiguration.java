package org.eeoutbox.cdi.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.config.Property;
import org.eeoutbox.spi.SettingsProvider;

/**
 * The configuration as checked once at deployment: the runtime's settings, the transports and
 * optional modules on the class path with their checked properties, and the application's beans.
 * The runtime builds the outbox from it, without reading the configuration again. Immutable once
 * read; thread-safe.
 *
 * @param configuration    the values, parsed once
 * @param settings         the runtime's settings; {@code null} when {@link #problems()} is not empty
 * @param transports       the transports found
 * @param modules          the optional modules' settings found ({@link SettingsProvider})
 * @param applicationBeans the application's beans, complete once the deployment is validated
 */
public record DeploymentConfiguration(Configuration configuration, OutboxSettings settings, Transports transports,
                                      List<SettingsProvider> modules, ApplicationBeans applicationBeans) {

    /** The prefix of every outbox property. */
    static final String PREFIX = "outbox.";

    /**
     * Reads and checks the runtime's and every transport's properties.
     *
     * @param loader finds the transports, the application's class loader
     */
    public static DeploymentConfiguration read(Configuration configuration, ClassLoader loader,
                                               ApplicationBeans applicationBeans) {
        Transports transports = Transports.load(loader);
        Optional<OutboxSettings> settings = OutboxSettings.read(configuration);
        transports.check(configuration);
        List<SettingsProvider> modules = ServiceProviders.load(SettingsProvider.class, loader, "Outbox module");
        modules.forEach(module -> module.check(configuration));
        return new DeploymentConfiguration(configuration, settings.orElse(null), transports, List.copyOf(modules),
                applicationBeans);
    }

    /** Returns every problem found, one sentence each naming the property; empty when the configuration is valid. */
    public List<String> problems() {
        return configuration.problems();
    }

    /** Returns a warning for each {@code outbox.*} key that no runtime or transport property matches. */
    public List<String> unknownKeys() {
        return configuration.unknownKeys(PREFIX, properties());
    }

    /** Returns every declared property: the runtime's, then each transport's, then each module's. */
    public List<Property<?>> properties() {
        List<Property<?>> all = new ArrayList<>(OutboxSettings.PROPERTIES);
        all.addAll(transports.properties());
        modules.forEach(module -> all.addAll(module.properties()));
        return all;
    }
}
