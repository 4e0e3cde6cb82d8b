package org.eeoutbox;

/** Checks on text shared by the API types. */
final class Text {

    private Text() {
    }

    /**
     * Returns the length of {@code value} encoded as UTF-8, in bytes.
     *
     * @throws IllegalArgumentException naming {@code name} if {@code value} holds an unpaired
     *                                  surrogate, which has no UTF-8 encoding
     */
    static long utf8Length(String name, CharSequence value) {
        long bytes = 0;
        int length = value.length();
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < length
                    && Character.isLowSurrogate(value.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException(name + " holds an unpaired UTF-16 surrogate at index "
                        + i + ": it cannot be stored as UTF-8");
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /** Throws {@link IllegalArgumentException} naming {@code name} on an unpaired surrogate. */
    static void requireValidUtf16(String name, CharSequence value) {
        utf8Length(name, value);
    }
}
