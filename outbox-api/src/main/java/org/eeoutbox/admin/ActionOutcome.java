package org.eeoutbox.admin;

/** What became of an operation on one entry. */
public enum ActionOutcome {
    /** The entry changed as asked. */
    DONE,
    /** No entry has this id (never published, or purged). */
    NOT_FOUND,
    /** The entry's status does not allow the operation, for example a concurrent replay won. */
    WRONG_STATUS,
    /** A delivery in progress holds the entry; nothing was waited for. Try again in a moment. */
    BUSY
}
