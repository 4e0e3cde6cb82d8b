package org.eeoutbox.admin;

import java.util.List;

/**
 * An entry with its payload and its failure history.
 *
 * @param entry    the entry, payload included
 * @param failures its failed attempts, oldest first; successful attempts are not recorded, and a
 *                 replay keeps the earlier failures
 */
public record EntryDetails(EntryView entry, List<FailedAttempt> failures) {

    public EntryDetails {
        failures = List.copyOf(failures);
    }
}
