package org.eeoutbox.admin.rest;

import java.util.List;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.config.Property;

/**
 * The admin API's configuration: whether it is on, its base path, and the two container roles it
 * admits. Read once per application from MicroProfile Config ({@link ConfiguredSettings}) and
 * checked at deployment by {@link AdminRestSettingsProvider}. Immutable.
 *
 * @param enabled      {@code outbox.admin.rest.enabled}
 * @param path         the base path relative to the application's JAX-RS root, without leading or
 *                     trailing {@code /}
 * @param viewerRole   the role that reads entries without payloads; {@code null} when unset
 * @param operatorRole the role that also reads payloads and replays, discards, pauses;
 *                     {@code null} when unset
 */
record AdminRestSettings(boolean enabled, String path, String viewerRole, String operatorRole) {

    /** The settings of an API that is off: every request under its paths is answered 404. */
    static final AdminRestSettings DISABLED = new AdminRestSettings(false, OutboxAdminResource.PATH, null, null);

    static final Property<Boolean> ENABLED = Property.bool("outbox.admin.rest.enabled", false,
            "Serve the admin REST API (outbox-admin-rest); it also needs both role properties.");
    static final Property<String> BASE_PATH = Property.relativePath("outbox.admin.rest.path", OutboxAdminResource.PATH,
            "Where the admin REST API is served, under the application's @ApplicationPath.");
    static final Property<String> VIEWER_ROLE = Property.text("outbox.admin.rest.viewer-role", null, "a role name",
            "The container role that reads entries, history and counts, without payloads; required when enabled.");
    static final Property<String> OPERATOR_ROLE = Property.text("outbox.admin.rest.operator-role", null,
            "a role name", "The container role that also reads payloads and replays, discards, pauses and "
                    + "resumes; required when enabled.");

    /** Every property of the admin API, in the order of the configuration reference. */
    static final List<Property<?>> PROPERTIES = List.of(ENABLED, BASE_PATH, VIEWER_ROLE, OPERATOR_ROLE);

    /**
     * Reads the properties, recording each problem in {@code configuration}: an invalid path, and,
     * when enabled, a role property unset (the API has no default roles, so that it never opens
     * by accident).
     *
     * @return the settings; {@link #DISABLED} when a problem was found
     */
    static AdminRestSettings read(Configuration configuration) {
        int problemsBefore = configuration.problems().size();
        boolean enabled = configuration.get(ENABLED);
        String path = configuration.get(BASE_PATH);
        String viewer = configuration.get(VIEWER_ROLE);
        String operator = configuration.get(OPERATOR_ROLE);
        if (enabled && (viewer == null || operator == null)) {
            configuration.problem(ENABLED.name() + "=true needs " + VIEWER_ROLE.name() + " and " + OPERATOR_ROLE.name()
                    + " (the container roles that may read and that may change entries); the admin API has no "
                    + "default roles");
        }
        return configuration.problems().size() == problemsBefore
                ? new AdminRestSettings(enabled, path, viewer, operator) : DISABLED;
    }
}
