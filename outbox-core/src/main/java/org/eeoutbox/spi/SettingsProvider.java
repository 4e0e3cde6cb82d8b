package org.eeoutbox.spi;

import java.util.List;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.config.Property;

/**
 * The configuration of an optional module that is not a transport (such as the admin REST API):
 * found with {@link java.util.ServiceLoader} (a
 * {@code META-INF/services/org.eeoutbox.spi.SettingsProvider} file in the module's jar), its
 * properties are part of the validation at deployment, of the unknown-key warning and of the
 * configuration reference, like the runtime's own. Implementations need a public no-argument
 * constructor and are called by one thread at a time.
 */
public interface SettingsProvider {

    /** Returns every property the module reads. */
    List<Property<?>> properties();

    /**
     * Reads and checks the module's properties, recording each problem in {@code configuration}
     * (the deployment then fails, every problem listed). Called once at deployment.
     */
    void check(Configuration configuration);
}
