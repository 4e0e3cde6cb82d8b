package org.eeoutbox.spi;

/**
 * What happens to an ordering key when its head (its earliest entry not yet delivered) fails for
 * good: set by {@code outbox.ordering.on-head-failure}. Entries without an ordering key are not
 * affected. See docs/ordering.md.
 */
public enum HeadFailurePolicy {

    /**
     * The {@code FAILED} head keeps its key blocked: the key's later entries wait until an operator
     * replays the head (the key goes on in order) or discards it (the key goes on without it). The
     * default: order is never broken silently.
     */
    BLOCK,

    /**
     * The head ends {@code FAILED} and the key goes on with its next entry: order is kept among
     * the entries delivered, the failed one is missing from it.
     */
    SKIP
}
