package org.eeoutbox.admin.rest;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.Provider;
import java.net.URI;

/**
 * Serves the admin resource under the configured base path: a pre-matching filter (the only
 * portable way a JAX-RS resource of a library jar gets a path chosen at deployment) that rewrites
 * {@code <outbox.admin.rest.path>/...} to the resource's fixed {@link OutboxAdminResource#PATH}
 * and marks the request as routed. A request that reaches the fixed path directly (when another
 * base path is configured) or any admin path while the API is off is answered 404, so the API is
 * not there at all unless enabled. Requests to the application's own paths pass untouched.
 *
 * <p>Stateless and thread-safe.
 */
@Provider
@PreMatching
@Priority(Priorities.AUTHENTICATION - 100)
public class AdminRouting implements ContainerRequestFilter {

    /** The request property that marks a request routed to the admin resource by this filter. */
    static final String ROUTED = AdminRouting.class.getName() + ".routed";

    @Override
    public void filter(ContainerRequestContext request) {
        AdminRestSettings settings = ConfiguredSettings.get();
        UriInfo uri = request.getUriInfo();
        String path = withoutLeadingSlash(uri.getPath(false));
        if (settings.enabled() && isUnder(path, settings.path())) {
            request.setProperty(ROUTED, Boolean.TRUE);
            if (!settings.path().equals(OutboxAdminResource.PATH)) {
                String rest = path.substring(settings.path().length());
                String query = uri.getRequestUri().getRawQuery();
                request.setRequestUri(uri.getBaseUri(), URI.create(uri.getBaseUri() + OutboxAdminResource.PATH + rest
                        + (query == null ? "" : "?" + query)));
            }
        } else if (isUnder(path, OutboxAdminResource.PATH)) {
            request.abortWith(AdminJson.error(404, null, "Not found"));
        }
    }

    private static boolean isUnder(String path, String base) {
        return path.equals(base) || path.startsWith(base + "/");
    }

    private static String withoutLeadingSlash(String path) {
        return path.startsWith("/") ? path.substring(1) : path;
    }
}
