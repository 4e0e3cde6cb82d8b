package org.eeoutbox.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class PageTokenTest {

    @Test
    void aTokenIsTwentyTwoUrlSafeCharactersAndGivesTheIdBack() {
        for (int i = 0; i < 100; i++) {
            UUID id = UuidV7.next();
            String token = PageToken.encode(id);
            assertEquals(22, token.length());
            assertTrue(token.matches("[A-Za-z0-9_-]{22}"), token);
            assertEquals(id, PageToken.decode(token));
        }
    }

    @Test
    void anythingElseIsRefusedNamingTheParameter() {
        String genuine = PageToken.encode(UuidV7.next());
        // The last character carries 2 bits of the id and 4 unused ones: a non-zero unused bit
        // decodes to the same bytes, so only the canonical spelling is accepted.
        // A canonical last character is A, Q, g or w; the next letter differs in an unused bit.
        String nonCanonical = genuine.substring(0, 21) + (char) (genuine.charAt(21) + 1);
        for (String bad : List.of("", "abc", genuine + "=", genuine + "A", genuine.substring(1), "+".repeat(22),
                "/".repeat(22), "A".repeat(10_000), nonCanonical)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PageToken.decode(bad));
            assertTrue(e.getMessage().startsWith("after "), e.getMessage());
            assertTrue(e.getMessage().length() < 200, "a long token is cut in the message");
        }
    }
}
