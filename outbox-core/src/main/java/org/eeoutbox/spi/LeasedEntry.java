package org.eeoutbox.spi;

import java.util.Objects;
import org.eeoutbox.OutboxEntry;

/**
 * An entry claimed in lease mode ({@link OutboxStore#lease}), with the fencing token of its lease.
 *
 * <p>A lease lets the entry be delivered with no transaction open: the claim stamps the row with
 * an owner, a token one higher than any before it and an expiry on the database's clock, and
 * commits. Only a completion that presents the same token may write the outcome
 * ({@link OutboxStore#completeLeased}); once the lease has expired, another claim may take the
 * entry and raise the token, and the first holder's completion is refused. Immutable.
 *
 * @param entry the entry; as claimed, with {@link OutboxEntry#attempts()} as it stood before this
 *              claim counted its attempt, so the engine's retry arithmetic is that of lock mode;
 *              as completed, after its transition
 * @param token the lease's fencing token, {@code >= 1}
 */
public record LeasedEntry(OutboxEntry entry, long token) {

    public LeasedEntry {
        Objects.requireNonNull(entry, "entry");
        if (token < 1) {
            throw new IllegalArgumentException("token must be >= 1, got: " + token);
        }
    }

    /** Returns the same lease holding {@code next}, the entry after its transition. */
    public LeasedEntry with(OutboxEntry next) {
        return new LeasedEntry(next, token);
    }
}
