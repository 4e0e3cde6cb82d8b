package org.eeoutbox.spi;

import java.util.List;

/**
 * Reads feed channels: the entries of delivery type {@value #DELIVERY_TYPE}, whose ordering key is
 * their channel and whose ordering sequence, given out in commit order per key, is their cursor.
 * A reader that asks for the events after the last cursor it received never misses an event nor
 * receives one twice, even when transactions commit out of id order: a publishing transaction
 * holds its channel's sequence until it ends, so a number becomes visible only after every
 * smaller one has committed or rolled back (a gap).
 *
 * <p>Every method runs in the transaction current on the calling thread, as {@link OutboxStore}'s
 * do. Thread-safe. Failures of the database surface as {@link OutboxStoreException}.
 */
public interface FeedStore {

    /** The delivery type of feed entries. */
    String DELIVERY_TYPE = "feed";

    /**
     * Returns up to {@code limit} events of {@code channel} whose cursor is greater than
     * {@code afterSeq}, in cursor order. Never leaves out a committed event whose cursor is smaller
     * than the last one returned, even on a database whose snapshot can show a transaction's
     * commit without an earlier one's (MariaDB).
     *
     * @param afterSeq the last cursor received, {@code 0} for the channel's beginning
     * @param limit    at most this many, {@code >= 1}
     */
    List<FeedEvent> read(String channel, long afterSeq, int limit);

    /**
     * Returns the cursor of the channel's latest committed event still retained, {@code 0} when it
     * has none: where a client that gives no cursor starts (it receives what commits afterwards).
     */
    long head(String channel);

    /**
     * Returns whether events after {@code afterSeq} may have been purged: the channel's oldest
     * retained event is further on than the one after the cursor, or every event of a channel that
     * had some after the cursor is gone. A client behind such a cursor must resynchronise.
     * Conservative: a gap right after the cursor (a rolled back publish) can also report
     * {@code true}, never the other way round.
     */
    boolean expired(String channel, long afterSeq);
}
