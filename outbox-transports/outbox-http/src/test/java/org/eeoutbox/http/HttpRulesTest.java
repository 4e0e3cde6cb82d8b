package org.eeoutbox.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.URI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HttpRulesTest {

    @ParameterizedTest
    @CsvSource({
            "https://h.example, /hooks, https://h.example/hooks",
            "https://h.example/, /hooks, https://h.example/hooks",
            "https://h.example/api, /hooks?x=1, https://h.example/api/hooks?x=1",
            "https://h.example/api/, /hooks, https://h.example/api/hooks",
            "http://127.0.0.1:8080/api, '', http://127.0.0.1:8080/api",
            "https://h.example:8443, /@evil.example, https://h.example:8443/@evil.example",
            "https://h.example, /:80@evil.example/x, https://h.example/:80@evil.example/x"})
    void resolveAppendsThePathAndStaysOnTheHost(String base, String path, String expected) {
        URI target = HttpRules.resolve(URI.create(base), HttpRules.requirePath(path, true));
        assertEquals(URI.create(expected), target);
        assertEquals(URI.create(base).getHost(), target.getHost());
    }

    @ParameterizedTest
    @CsvSource({
            "https://h.example, @evil.example/x",
            "https://h.example, .evil.example/x",
            "https://h.example, :8443/x",
            "https://h.example/api, /../admin",
            "https://h.example/api, -evil/x",
            "https://h.example, #frag"})
    void resolveRefusesWhatWouldLeaveTheBaseUrl(String base, String path) {
        // Unchecked paths, as a bug elsewhere could pass them: the final check still holds.
        assertNull(HttpRules.resolve(URI.create(base), path));
    }
}
