package org.eeoutbox.cdi.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Type;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.function.Predicate;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.config.Property;
import org.eeoutbox.spi.TransportContext;
import org.eeoutbox.spi.TransportProvider;
import org.junit.jupiter.api.Test;

/** An application-written transport goes through the same SPI as the built-in ones. */
class TransportsTest {

    private static TransportContext context(Configuration configuration) {
        return new RuntimeTransportContext(configuration, Runnable::run, Executors::defaultThreadFactory,
                Clock.systemUTC(),
                new OutboxAssembly.ApplicationBeanSource() {
            @Override
            public <T> List<T> beans(Class<T> as, Predicate<Type> type) {
                return List.of();
            }
        });
    }

    @Test
    void anApplicationTransportIsConfiguredFromItsOwnProperties() {
        Transports transports = new Transports(List.of(new SmsTransportProvider()));
        Configuration configuration = Configuration.of(Map.of("outbox.sms.timeout", "2s",
                "outbox.sms.gateway", "https://gateway.example/x", "outbox.sms.tiemout", "1s"));

        transports.check(configuration);
        List<MessageDeliverer> created = transports.create(context(configuration));

        assertEquals(List.of(new SmsDeliverer(URI.create("https://gateway.example/x"), Duration.ofSeconds(2))), created);
        assertEquals(List.of("outbox.sms.tiemout is not an outbox property and is ignored; did you mean "
                + "outbox.sms.timeout?"), configuration.unknownKeys("outbox.", transports.properties()));
    }

    @Test
    void aBadValueOfAnApplicationTransportIsAProblemNamingIt() {
        Transports transports = new Transports(List.of(new SmsTransportProvider()));
        Configuration configuration = Configuration.of(Map.of("outbox.sms.timeout", "2m"));

        transports.check(configuration);

        assertEquals(1, configuration.problems().size());
        assertTrue(configuration.problems().get(0).startsWith("outbox.sms.timeout=2m is invalid"));
    }

    @Test
    void onlyTheTransportsThatSaySoAreLeasedByDefault() {
        Transports transports = Transports.load(getClass().getClassLoader());

        assertTrue(transports.deliveryTypes().containsAll(List.of("http", "kafka")),
                transports.deliveryTypes().toString());
        assertEquals(Set.of("http"), transports.leasedByDefault(), "webhooks wait on receivers; Kafka and the rest lock");
        assertEquals(Set.of(), new Transports(List.of(new SmsTransportProvider())).leasedByDefault(),
                "a transport that does not choose is locked");
    }

    /** This module's tests run without the optional Apache HttpClient jar, as an application may. */
    @Test
    void withoutApacheHttpClientAutoIsTheJdkClientAndApacheIsAProblemNamingTheArtifact() throws Exception {
        Transports transports = Transports.load(getClass().getClassLoader());
        Configuration auto = Configuration.of(Map.of());
        transports.check(auto);
        List<MessageDeliverer> created = transports.create(context(auto));
        try {
            assertTrue(created.stream().anyMatch(deliverer -> deliverer.toString()
                    .startsWith("HttpMessageDeliverer[jdk client")), created.toString());
        } finally {
            for (MessageDeliverer deliverer : created) {
                ((AutoCloseable) deliverer).close();
            }
        }

        Configuration apache = Configuration.of(Map.of("outbox.http.client", "apache"));
        transports.check(apache);

        assertEquals(List.of("outbox.http.client=apache is invalid: org.apache.httpcomponents.client5:httpclient5 (the "
                + "apache HTTP client) is not on the application's class path: add it, or use the jdk client"),
                apache.problems());
    }

    @Test
    void aFailingTransportClosesTheDeliverersAlreadyCreated() {
        Closing first = new Closing();
        TransportProvider failing = new Fixed("b", () -> {
            throw new IllegalStateException("cannot connect");
        });
        Transports transports = new Transports(List.of(new Fixed("a", () -> first), failing));

        assertThrows(IllegalStateException.class, () -> transports.create(context(Configuration.of(Map.of()))));

        assertTrue(first.closed);
    }

    private static final class Closing implements MessageDeliverer, AutoCloseable {
        boolean closed;

        @Override
        public String deliveryType() {
            return "a";
        }

        @Override
        public DeliveryResult deliver(OutboxEntry entry) {
            return DeliveryResult.delivered();
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private record Fixed(String deliveryType, java.util.function.Supplier<MessageDeliverer> deliverer)
            implements TransportProvider {

        @Override
        public List<Property<?>> properties() {
            return List.of();
        }

        @Override
        public void check(Configuration configuration) {
        }

        @Override
        public Optional<MessageDeliverer> create(TransportContext context) {
            return Optional.of(deliverer.get());
        }
    }
}
