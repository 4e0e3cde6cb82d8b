package org.eeoutbox.admin;

/**
 * Which page of a {@link OutboxAdmin#list list} to read.
 *
 * @param after          the {@link EntryPage#nextPage()} token of the previous page, or
 *                       {@code null} for the first page; opaque
 * @param size           entries per page, 1 to {@link OutboxAdmin#MAX_PAGE_SIZE}
 * @param includePayload whether the entries carry their payload (left out by default: payloads
 *                       can be large and may hold personal data)
 */
public record PageRequest(String after, int size, boolean includePayload) {

    /** The first page of 50 entries, without payloads. */
    public static final PageRequest FIRST = new PageRequest(null, 50, false);

    /** @throws IllegalArgumentException naming {@code size} if it is out of range */
    public PageRequest {
        if (size < 1 || size > OutboxAdmin.MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("size must be 1 to " + OutboxAdmin.MAX_PAGE_SIZE + ", got: " + size);
        }
    }

    /** Returns the request of the page after {@code page}, or {@code null} if it was the last. */
    public PageRequest next(EntryPage page) {
        return page.nextPage() == null ? null : new PageRequest(page.nextPage(), size, includePayload);
    }
}
