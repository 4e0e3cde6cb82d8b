package org.eeoutbox.feed.sse;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.Provider;
import java.net.URI;

/**
 * Serves the feed resource under the configured path, as the admin API's routing does: a
 * pre-matching filter rewrites {@code <outbox.feed.sse.path>/...} to the resource's fixed
 * {@link FeedResource#PATH}. A request that reaches the fixed path directly (when another path is
 * configured), or any feed path while {@code outbox.feed.sse.enabled} is not {@code true}, is
 * answered 404: the resource is not there unless enabled. Stateless and thread-safe.
 */
@Provider
@PreMatching
@Priority(Priorities.AUTHENTICATION - 100)
public class FeedRouting implements ContainerRequestFilter {

    @Override
    public void filter(ContainerRequestContext request) {
        FeedSettings settings = ConfiguredFeedSettings.get();
        UriInfo uri = request.getUriInfo();
        String path = withoutLeadingSlash(uri.getPath(false));
        if (settings.sseEnabled() && isUnder(path, settings.path())) {
            if (!settings.path().equals(FeedResource.PATH)) {
                String rest = path.substring(settings.path().length());
                String query = uri.getRequestUri().getRawQuery();
                request.setRequestUri(uri.getBaseUri(), URI.create(uri.getBaseUri() + FeedResource.PATH + rest
                        + (query == null ? "" : "?" + query)));
            }
        } else if (isUnder(path, FeedResource.PATH)) {
            request.abortWith(Response.status(Response.Status.NOT_FOUND).type(MediaType.TEXT_PLAIN_TYPE)
                    .entity("Not found").build());
        }
    }

    private static boolean isUnder(String path, String base) {
        return path.equals(base) || path.startsWith(base + "/");
    }

    private static String withoutLeadingSlash(String path) {
        return path.startsWith("/") ? path.substring(1) : path;
    }
}
