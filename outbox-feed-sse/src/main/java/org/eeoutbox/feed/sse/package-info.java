/**
 * Feeds (module {@code outbox-feed-sse}): {@link org.eeoutbox.feed.sse.FeedDelivery} publishes an
 * event to a channel in the caller's transaction; the event is kept in the outbox table for
 * {@code outbox.feed.retention} and numbered in the channel's commit order. The opt-in JAX-RS
 * resource ({@code outbox.feed.sse.enabled=true}) streams a channel over Server-Sent Events and
 * resumes a client from its {@code Last-Event-ID}. Semantics, authorization and a browser example
 * are in {@code docs/feed.md}.
 */
package org.eeoutbox.feed.sse;
