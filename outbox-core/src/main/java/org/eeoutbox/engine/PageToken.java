package org.eeoutbox.engine;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.UUID;

/**
 * The opaque page token of {@link StoreOutboxAdmin#list}: the last id of a page, as 22 characters
 * of unpadded base64url. Ids are time-ordered (version 7), so the next page is the entries with
 * smaller ids: stable however many entries are published meanwhile.
 */
final class PageToken {

    private static final int LENGTH = 22;

    private PageToken() {
    }

    static String encode(UUID id) {
        ByteBuffer bytes = ByteBuffer.allocate(16).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits());
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
    }

    /** @throws IllegalArgumentException naming {@code after} if {@code token} is not one {@link #encode} made */
    static UUID decode(String token) {
        byte[] bytes = null;
        if (token.length() == LENGTH) {
            try {
                bytes = Base64.getUrlDecoder().decode(token);
            } catch (IllegalArgumentException e) {
                bytes = null;
            }
        }
        if (bytes == null || bytes.length != 16 || !encode(uuid(bytes)).equals(token)) {
            throw new IllegalArgumentException("after must be a nextPage token returned by list, got: "
                    + (token.length() > 40 ? token.substring(0, 40) + "… (" + token.length() + " characters)" : token));
        }
        return uuid(bytes);
    }

    private static UUID uuid(byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        return new UUID(buffer.getLong(), buffer.getLong());
    }
}
