package org.eeoutbox.it.app;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.SecurityContext;
import org.eeoutbox.feed.sse.FeedAuthorizer;

/** The test application's feed authorization: channels named {@code open-…} are readable by anyone. */
@ApplicationScoped
public class OpenChannels implements FeedAuthorizer {

    @Override
    public boolean mayRead(String channel, SecurityContext security) {
        return channel.startsWith("open-");
    }
}
