package org.eeoutbox.admin;

/**
 * What a bulk operation did.
 *
 * @param matched the entries that matched the filter (and the operation's statuses)
 * @param changed the entries changed: 0 for a dry run; fewer than {@code matched} when some were
 *                being delivered or changed concurrently (they were skipped, never waited for)
 * @param dryRun  whether it was a dry run
 */
public record BulkResult(long matched, long changed, boolean dryRun) {
}
