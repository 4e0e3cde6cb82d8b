package org.eeoutbox.feed.sse;

import jakarta.ws.rs.core.SecurityContext;

/**
 * Decides who may read a feed channel: the application provides one as a CDI bean. The feed
 * resource asks it once per request, before streaming; without such a bean, or when it says no,
 * the request is refused with 403. Implementations are thread-safe.
 */
public interface FeedAuthorizer {

    /**
     * Returns whether the caller may read {@code channel}.
     *
     * @param channel  a valid channel name
     * @param security the request's security context: its principal and roles
     */
    boolean mayRead(String channel, SecurityContext security);
}
