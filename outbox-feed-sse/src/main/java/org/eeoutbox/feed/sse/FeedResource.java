package org.eeoutbox.feed.sse;

import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;
import org.eeoutbox.spi.FeedStore;

/**
 * Streams a feed channel over Server-Sent Events: {@code GET <outbox.feed.sse.path>/<channel>}
 * (routed by {@link FeedRouting}). Each event's {@code id} is its cursor, its {@code event} name
 * the message type, its {@code data} the payload. A client resumes after a cursor with the
 * {@code Last-Event-ID} header (what {@code EventSource} sends when it reconnects) or
 * {@code ?after=<cursor>} (the header wins); without either it receives the events that commit
 * from now on, and {@code ?after=0} gives it every event still retained.
 *
 * <p>Before streaming: 400 for an invalid channel or cursor, 403 unless the application's
 * {@link FeedAuthorizer} admits the caller (none: 403 for everyone), 410 Gone when events after the
 * cursor have been purged ({@code outbox.feed.retention}): the client must resynchronise from the
 * application's own state, then follow the feed again without a cursor. Request-scoped CDI bean.
 */
@Path(FeedResource.PATH)
@RequestScoped
public class FeedResource {

    /** The resource's fixed path, and the default of {@code outbox.feed.sse.path}. */
    static final String PATH = "feeds";

    /** The request header a reconnecting EventSource sends. */
    static final String LAST_EVENT_ID = "Last-Event-ID";

    @Inject
    FeedHub hub;

    @Inject
    FeedStore feeds;

    @Inject
    Instance<FeedAuthorizer> authorizers;

    @Context
    SecurityContext security;

    @GET
    @Path("{channel}")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public void stream(@PathParam("channel") String channel, @HeaderParam(LAST_EVENT_ID) String lastEventId,
                       @QueryParam("after") String after, @Context SseEventSink sink, @Context Sse sse) {
        try {
            FeedDelivery.requireChannel(channel);
        } catch (IllegalArgumentException e) {
            throw refused(Response.Status.BAD_REQUEST, e.getMessage());
        }
        if (!authorized(channel)) {
            throw refused(Response.Status.FORBIDDEN, "Not allowed to read feed channel '" + channel + "'");
        }
        String given = lastEventId != null && !lastEventId.isBlank() ? lastEventId : after;
        long cursor;
        if (given == null || given.isBlank()) {
            cursor = feeds.head(channel);
        } else {
            cursor = parseCursor(given);
            if (feeds.expired(channel, cursor)) {
                throw refused(Response.Status.GONE, "Events of feed channel '" + channel + "' after " + cursor
                        + " are no longer kept (outbox.feed.retention): resynchronise, then reconnect without "
                        + LAST_EVENT_ID + " or after");
            }
        }
        hub.connect(channel, sink, sse, cursor, ConfiguredFeedSettings.get());
    }

    private boolean authorized(String channel) {
        if (!authorizers.isResolvable()) {
            return false;
        }
        return authorizers.get().mayRead(channel, security);
    }

    private static long parseCursor(String text) {
        try {
            long cursor = Long.parseLong(text.trim());
            if (cursor >= 0) {
                return cursor;
            }
        } catch (NumberFormatException e) {
            // Refused below.
        }
        throw refused(Response.Status.BAD_REQUEST, "The cursor (" + LAST_EVENT_ID + " or after) must be an event id,"
                + " a number >= 0, got: '" + text + "'");
    }

    static WebApplicationException refused(Response.Status status, String message) {
        return new WebApplicationException(Response.status(status).type(MediaType.TEXT_PLAIN_TYPE)
                .header(HttpHeaders.CACHE_CONTROL, "no-store").entity(message).build());
    }
}
