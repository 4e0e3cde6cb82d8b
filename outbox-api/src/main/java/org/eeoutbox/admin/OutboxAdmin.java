package org.eeoutbox.admin;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Operations on the outbox's entries, for operators and their tools: what failed and why, send it
 * again, give it up, see the backlog, pause a delivery type during an incident.
 *
 * <p>Inside a server, an application-scoped CDI bean: {@code @Inject OutboxAdmin admin}. Each
 * method runs in a transaction of its own (the caller's transaction, if any, is suspended), so a
 * change is committed when the method returns; bulk operations commit in batches of at most
 * {@link BulkRequest#BATCH_SIZE} entries. No method waits for a row lock held by a delivery in
 * progress: such an entry is reported {@link ActionOutcome#BUSY} or skipped. Every change is
 * logged at {@code INFO} with the caller (the container's current {@code Principal}, if any) and
 * fired as a CDI event {@link AdminAction}. Thread-safe.
 *
 * <p>Failures of the database surface as an unchecked exception naming the operation; invalid
 * arguments as {@link IllegalArgumentException} naming the argument, with nothing changed.
 */
public interface OutboxAdmin {

    /** The largest page {@link #list} returns. */
    int MAX_PAGE_SIZE = 200;

    /**
     * Lists the entries that match {@code filter}, newest first (by id: ids are time-ordered, in
     * publish order among those of one instance, to the millisecond across instances), one page at
     * a time. Pages are keyset-paginated: following
     * {@link EntryPage#nextPage()} never repeats or skips an entry that existed when the first
     * page was read, however many are published meanwhile.
     *
     * @throws IllegalArgumentException naming {@code after} if the page token is not one this
     *                                  method returned, or naming the filter's instant out of the
     *                                  range the databases store (years 1000 to 9999)
     */
    EntryPage list(EntryFilter filter, PageRequest page);

    /** Returns the entry with its payload and its failure history, oldest attempt first. */
    Optional<EntryDetails> get(UUID id);

    /**
     * Sends a {@code FAILED} or {@code DISCARDED} entry again: a compare-and-set to
     * {@code PENDING}, due now, attempts reset, same id (receivers deduplicate on the same
     * {@code x-outbox-id}). Its failure history, last error and last attempt time are kept until
     * its next attempt. Of two concurrent replays exactly one returns {@link ActionOutcome#DONE},
     * the other {@link ActionOutcome#WRONG_STATUS}.
     *
     * @return {@code DONE}; {@code NOT_FOUND}; {@code WRONG_STATUS} if it is neither
     *         {@code FAILED} nor {@code DISCARDED}, or another operator's change of it is
     *         committing (a concurrent replay won); {@code BUSY} if a running batch holds it
     */
    ActionOutcome replay(UUID id);

    /**
     * Replays every {@code FAILED} or {@code DISCARDED} entry that matches {@code filter} (its
     * status filter narrowed to those two), spreading their due times over
     * {@link BulkRequest#spread()} so that a receiver does not get them all at once.
     *
     * @throws IllegalArgumentException if more than {@link BulkRequest#maximum()} entries match;
     *                                  nothing is changed
     */
    BulkResult replay(EntryFilter filter, BulkRequest request);

    /**
     * Gives up a {@code PENDING} or {@code FAILED} entry: it becomes {@code DISCARDED}, is never
     * delivered, is kept for audit and purged after {@code outbox.purger.discarded-retention}.
     *
     * @return {@code DONE}; {@code NOT_FOUND}; {@code WRONG_STATUS} if it is {@code DELIVERED} or
     *         already {@code DISCARDED}; {@code BUSY} if a running batch holds it
     */
    ActionOutcome discard(UUID id);

    /**
     * Discards every {@code PENDING} or {@code FAILED} entry that matches {@code filter}.
     *
     * @throws IllegalArgumentException if more than {@link BulkRequest#maximum()} entries match;
     *                                  nothing is changed
     */
    BulkResult discard(EntryFilter filter, BulkRequest request);

    /**
     * Returns the counts per status (but {@code DELIVERED}) and delivery type, the age of the
     * oldest pending entry, and
     * how many pending entries are overdue by more than {@code stuckAfter}.
     *
     * @throws IllegalArgumentException if {@code stuckAfter} is negative
     */
    OutboxOverview overview(Duration stuckAfter);

    /**
     * Stops delivering entries of {@code deliveryType} on every instance (the state is in the
     * database, read at each poll); publishing continues and entries wait. Pausing a paused type
     * changes nothing.
     *
     * @throws IllegalArgumentException if {@code deliveryType} is blank or longer than 64
     *                                  characters
     */
    void pause(String deliveryType);

    /** Delivers {@code deliveryType} again, from the next poll on; a type not paused is left as is. */
    void resume(String deliveryType);

    /** Returns the paused delivery types, oldest pause first. */
    List<Pause> paused();

    /**
     * Returns up to {@code limit} ordering keys blocked by a {@code FAILED} head, the longest
     * blocked first; always empty under {@code outbox.ordering.on-head-failure=SKIP}. To release a
     * key, {@link #replay(UUID)} its head (delivered again, then its successors in order) or
     * {@link #discard(UUID)} it (the successors go on without it).
     *
     * @throws IllegalArgumentException if {@code limit} is not in {@code [1, }{@value #MAX_PAGE_SIZE}{@code ]}
     */
    List<BlockedKey> blockedKeys(int limit);
}
