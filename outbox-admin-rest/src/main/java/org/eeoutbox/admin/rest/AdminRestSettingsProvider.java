package org.eeoutbox.admin.rest;

import java.util.List;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.config.Property;
import org.eeoutbox.spi.SettingsProvider;

/**
 * Declares the admin API's properties to the outbox runtime, which checks them at deployment:
 * {@code outbox.admin.rest.enabled=true} without both role properties fails the deployment, naming
 * them. Registered in {@code META-INF/services}.
 */
public final class AdminRestSettingsProvider implements SettingsProvider {

    @Override
    public List<Property<?>> properties() {
        return AdminRestSettings.PROPERTIES;
    }

    @Override
    public void check(Configuration configuration) {
        AdminRestSettings.read(configuration);
    }
}
