package org.eeoutbox.admin.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.eeoutbox.config.Configuration;
import org.junit.jupiter.api.Test;

class AdminRestSettingsTest {

    @Test
    void isOffByDefaultAtTheDefaultPath() {
        Configuration configuration = Configuration.of(Map.of());

        AdminRestSettings settings = AdminRestSettings.read(configuration);

        assertFalse(settings.enabled());
        assertEquals("outbox-admin", settings.path());
        assertEquals(List.of(), configuration.problems());
    }

    @Test
    void enabledWithoutRolesIsRefusedNamingBothProperties() {
        Configuration configuration = Configuration.of(Map.of("outbox.admin.rest.enabled", "true",
                "outbox.admin.rest.viewer-role", "viewers"));

        AdminRestSettings settings = AdminRestSettings.read(configuration);

        assertFalse(settings.enabled(), "fails closed");
        assertEquals(1, configuration.problems().size());
        String problem = configuration.problems().get(0);
        assertTrue(problem.contains("outbox.admin.rest.viewer-role") && problem.contains("outbox.admin.rest.operator-role"),
                problem);
    }

    @Test
    void readsRolesAndStripsSlashesOffThePath() {
        Configuration configuration = Configuration.of(Map.of("outbox.admin.rest.enabled", "true",
                "outbox.admin.rest.path", "/ops/outbox/", "outbox.admin.rest.viewer-role", "v",
                "outbox.admin.rest.operator-role", "o"));

        assertEquals(new AdminRestSettings(true, "ops/outbox", "v", "o"), AdminRestSettings.read(configuration));
    }

    @Test
    void refusesAPathWithCharactersThatNeedEncoding() {
        Configuration configuration = Configuration.of(Map.of("outbox.admin.rest.path", "ops/{x}"));

        assertEquals(AdminRestSettings.DISABLED, AdminRestSettings.read(configuration));
        assertTrue(configuration.problems().get(0).startsWith("outbox.admin.rest.path=ops/{x} is invalid"));
    }

    @Test
    void theProviderDeclaresEveryProperty() {
        assertEquals(List.of("outbox.admin.rest.enabled", "outbox.admin.rest.path", "outbox.admin.rest.viewer-role",
                "outbox.admin.rest.operator-role"),
                new AdminRestSettingsProvider().properties().stream().map(p -> p.name()).toList());
    }
}
