package org.eeoutbox.cdi.internal;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.config.Property;
import org.eeoutbox.spi.TransportContext;
import org.eeoutbox.spi.TransportProvider;

/** The application-written transport of docs/transports.md, as it compiles. */
public final class SmsTransportProvider implements TransportProvider {

    static final Property<String> GATEWAY = Property.text("outbox.sms.gateway", "https://sms.example/send",
            "an https URL", "Where the SMS gateway takes messages.");
    static final Property<Duration> TIMEOUT = Property.duration("outbox.sms.timeout", Duration.ofSeconds(5),
            Duration.ofMillis(1), Duration.ofMinutes(1), "How long one message may take.");

    @Override
    public String deliveryType() {
        return "sms";
    }

    @Override
    public List<Property<?>> properties() {
        return List.of(GATEWAY, TIMEOUT);
    }

    @Override
    public void check(Configuration configuration) {
        configuration.get(GATEWAY);
        configuration.get(TIMEOUT);
    }

    @Override
    public Optional<MessageDeliverer> create(TransportContext context) {
        Configuration configuration = context.configuration();
        return Optional.of(new SmsDeliverer(URI.create(configuration.get(GATEWAY)), configuration.get(TIMEOUT)));
    }
}
