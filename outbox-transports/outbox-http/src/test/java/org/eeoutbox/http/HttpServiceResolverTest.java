package org.eeoutbox.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HttpServiceResolverTest {

    @Test
    void ofResolvesKnownServicesAndNothingElse() {
        Map<String, URI> urls = new HashMap<>(Map.of("billing", URI.create("https://billing.example.com/api")));
        HttpServiceResolver resolver = HttpServiceResolver.of(urls);
        urls.put("later", URI.create("https://later.example.com"));

        assertEquals(Optional.of(URI.create("https://billing.example.com/api")), resolver.resolve("billing"));
        assertEquals(Optional.empty(), resolver.resolve("later"));
        assertEquals(Optional.empty(), resolver.resolve("unknown"));
        assertEquals(Optional.empty(), resolver.resolve(null));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "ftp://files.example.com|must be an absolute http or https URL",
            "billing.example.com/api|must be an absolute http or https URL",
            "http:billing|must name a host",
            "http:///path|must name a host",
            "https://user:secret@billing.example.com|must not contain user info",
            "https://billing.example.com/api?key=1|must not have a query or a fragment",
            "https://billing.example.com/api#top|must not have a query or a fragment",
            "https://billing.example.com/a/../admin|must not contain '.' or '..' segments"})
    void ofRejectsInvalidBaseUrlNamingTheService(String url, String rule) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HttpServiceResolver.of(Map.of("billing", URI.create(url))));
        assertTrue(e.getMessage().startsWith("base URL of HTTP service 'billing' " + rule), e.getMessage());
    }

    @Test
    void ofRejectsCredentialsInABaseUrlWithoutRepeatingThem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HttpServiceResolver.of(Map.of("billing", URI.create("https://user:s3cr%40t@billing.example.com/api"))));
        assertEquals("base URL of HTTP service 'billing' must not contain user info (credentials), got:"
                + " \"https://***@billing.example.com/api\"", e.getMessage());
    }

    @Test
    void ofRejectsNullMapNullUrlAndBadName() {
        assertThrows(IllegalArgumentException.class, () -> HttpServiceResolver.of(null));
        Map<String, URI> nullUrl = new HashMap<>();
        nullUrl.put("billing", null);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HttpServiceResolver.of(nullUrl));
        assertTrue(e.getMessage().startsWith("base URL of HTTP service 'billing' must not be null"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> HttpServiceResolver.of(Map.of("bad name", URI.create("https://x.example"))));
        assertTrue(e.getMessage().startsWith("serviceName"), e.getMessage());
    }
}
