package org.eeoutbox.engine;

/**
 * Fired as a CDI event after a transaction that published on this instance committed, on the
 * committing thread ({@link OutboxListener#onPublishCommitted()}): an observer must only hand work
 * to an executor. The feed's hub reads its channels at once instead of at its next poll.
 */
public record PublishCommitted() {

    /** The one event: it carries nothing. */
    public static final PublishCommitted INSTANCE = new PublishCommitted();
}
