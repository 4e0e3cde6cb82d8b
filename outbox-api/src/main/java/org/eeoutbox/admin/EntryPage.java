package org.eeoutbox.admin;

import java.util.List;

/**
 * One page of a {@link OutboxAdmin#list list}.
 *
 * @param entries  the entries, newest first
 * @param nextPage the token of the next page, or {@code null} if this is the last
 */
public record EntryPage(List<EntryView> entries, String nextPage) {

    public EntryPage {
        entries = List.copyOf(entries);
    }
}
