package org.eeoutbox.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.spi.TransportProvider;
import org.junit.jupiter.api.Test;

class HttpTransportProviderTest {

    private final HttpTransportProvider provider = new HttpTransportProvider();

    private List<String> problems(Map<String, String> values) {
        Configuration configuration = Configuration.of(values);
        provider.check(configuration);
        return configuration.problems();
    }

    @Test
    void aConnectTimeoutAboveItsMaximumNamesThePropertyNotTheRecordComponent() {
        List<String> problems = problems(Map.of("outbox.http.connect-timeout", "10m"));

        assertEquals(List.of("outbox.http.connect-timeout=10m is invalid: expected a duration in [1ms, 5m], as "
                + "ISO-8601 (PT10S) or 500ms, 10s, 5m, 2h, 7d"), problems);
    }

    @Test
    void everyBadPropertyIsListed() {
        List<String> problems = problems(Map.of("outbox.http.connect-timeout", "10m",
                "outbox.http.request-timeout", "11m", "outbox.http.max-in-flight", "0",
                "outbox.http.service.orders.url", "ftp://user:secret@host/x"));

        assertEquals(4, problems.size(), problems.toString());
        assertTrue(problems.get(3).startsWith("outbox.http.service.orders.url is invalid"), problems.toString());
        assertFalse(problems.toString().contains("secret"), "a URL's credentials are never echoed: " + problems);
    }

    @Test
    void goodValuesPass() {
        assertEquals(List.of(), problems(Map.of("outbox.http.connect-timeout", "5m",
                "outbox.http.service.orders.url", "https://orders.example/hooks")));
    }

    @Test
    void everyKeyItReadsIsDeclared() {
        List<String> names = provider.properties().stream().map(p -> p.name()).toList();

        assertEquals(List.of("outbox.http.connect-timeout", "outbox.http.request-timeout", "outbox.http.max-in-flight",
                "outbox.http.service.<name>.url", "outbox.http.service.<name>.signing-secret",
                "outbox.http.service.<name>.cloudevents"), names);
        assertTrue(provider.properties().get(3).matches("outbox.http.service.orders.url"));
    }

    @Test
    void isFoundByTheServiceLoader() {
        assertTrue(ServiceLoader.load(TransportProvider.class).stream()
                .anyMatch(found -> found.type() == HttpTransportProvider.class));
    }
}
