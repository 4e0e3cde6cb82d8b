package org.eeoutbox.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Type;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.spi.TransportContext;
import org.eeoutbox.spi.TransportProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

        assertEquals(List.of("outbox.http.client", "outbox.http.connect-timeout", "outbox.http.request-timeout",
                "outbox.http.max-in-flight",
                "outbox.http.service.<name>.url", "outbox.http.service.<name>.signing-secret",
                "outbox.http.service.<name>.cloudevents"), names);
        assertTrue(provider.properties().get(4).matches("outbox.http.service.orders.url"));
    }

    @Test
    void anUnknownClientNamesThePropertyAndTheChoices() {
        assertEquals(List.of("outbox.http.client=netty is invalid: expected one of auto, jdk, apache"),
                problems(Map.of("outbox.http.client", "netty")));
    }

    @ParameterizedTest
    @CsvSource({"auto, apache", "apache, apache", "jdk, jdk"})
    void theClientIsTheOneNamedAndAutoPrefersApacheWhenPresent(String value, String expected) {
        AtomicBoolean threadFactoryAsked = new AtomicBoolean();
        TransportContext context = new TransportContext() {
            @Override
            public Configuration configuration() {
                return Configuration.of(Map.of("outbox.http.client", value));
            }

            @Override
            public Executor executor() {
                return Runnable::run;
            }

            @Override
            public ThreadFactory threadFactory() {
                threadFactoryAsked.set(true);
                return Executors.defaultThreadFactory();
            }

            @Override
            public Clock clock() {
                return Clock.systemUTC();
            }

            @Override
            public <T> List<T> applicationBeans(Class<T> as, Predicate<Type> type) {
                return List.of();
            }
        };

        try (HttpMessageDeliverer deliverer = (HttpMessageDeliverer) provider.create(context).orElseThrow()) {
            assertTrue(deliverer.toString().startsWith("HttpMessageDeliverer[" + expected + " client"),
                    deliverer.toString());
        }
        assertEquals(expected.equals("apache"), threadFactoryAsked.get(), "the managed thread factory is asked for");
    }

    @Test
    void isFoundByTheServiceLoader() {
        assertTrue(ServiceLoader.load(TransportProvider.class).stream()
                .anyMatch(found -> found.type() == HttpTransportProvider.class));
    }
}
