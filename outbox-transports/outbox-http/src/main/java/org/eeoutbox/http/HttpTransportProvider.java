package org.eeoutbox.http;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.config.Property;
import org.eeoutbox.spi.TransportContext;
import org.eeoutbox.spi.TransportProvider;

/**
 * The HTTP transport for the outbox runtime: an {@link HttpMessageDeliverer} whose services come
 * from {@code outbox.http.service.<name>.url} and whose timeouts and in-flight cap come from
 * {@code outbox.http.*}. Always created, even with no service configured (entries then fail,
 * naming the unknown service). Found through {@code META-INF/services}.
 */
public final class HttpTransportProvider implements TransportProvider {

    private static final Logger LOG = System.getLogger(HttpTransportProvider.class.getName());

    static final Property<Duration> CONNECT_TIMEOUT = Property.duration("outbox.http.connect-timeout",
            HttpDelivererSettings.DEFAULT.connectTimeout(), HttpDelivererSettings.MIN_TIMEOUT,
            HttpDelivererSettings.MAX_CONNECT_TIMEOUT, "How long a webhook delivery waits for a connection (TCP and TLS).");
    static final Property<Duration> REQUEST_TIMEOUT = Property.duration("outbox.http.request-timeout",
            HttpDelivererSettings.DEFAULT.requestTimeout(), HttpDelivererSettings.MIN_TIMEOUT,
            HttpDelivererSettings.MAX_REQUEST_TIMEOUT,
            "How long a webhook delivery waits for the response once the request is under way.");
    static final Property<Integer> MAX_IN_FLIGHT = Property.integer("outbox.http.max-in-flight",
            HttpDelivererSettings.DEFAULT_MAX_IN_FLIGHT, 1, HttpDelivererSettings.MAX_IN_FLIGHT,
            "The most webhook requests open at once, across all batches.");
    static final Property<String> SERVICE_URL = Property.text("outbox.http.service.<name>.url", null,
            "an absolute http or https URL without user info, query or fragment",
            "The base URL of the service that `HttpDelivery.to(\"<name>\", ...)` sends to.");

    /** Public for {@link java.util.ServiceLoader}. */
    public HttpTransportProvider() {
    }

    @Override
    public String deliveryType() {
        return HttpDelivery.DELIVERY_TYPE;
    }

    @Override
    public List<Property<?>> properties() {
        return List.of(CONNECT_TIMEOUT, REQUEST_TIMEOUT, MAX_IN_FLIGHT, SERVICE_URL);
    }

    @Override
    public void check(Configuration configuration) {
        settings(configuration);
        services(configuration);
    }

    @Override
    public Optional<MessageDeliverer> create(TransportContext context) {
        Configuration configuration = context.configuration();
        HttpDelivererSettings settings = settings(configuration);
        Map<String, URI> services = services(configuration);
        configuration.throwIfInvalid();
        LOG.log(Level.INFO, "Outbox HTTP services: {0}", services);
        return Optional.of(new HttpMessageDeliverer(HttpServiceResolver.of(services), context.executor(),
                context.clock(), settings));
    }

    private static HttpDelivererSettings settings(Configuration configuration) {
        return new HttpDelivererSettings(configuration.get(CONNECT_TIMEOUT), configuration.get(REQUEST_TIMEOUT),
                configuration.get(MAX_IN_FLIGHT));
    }

    private static Map<String, URI> services(Configuration configuration) {
        String prefix = "outbox.http.service.";
        Map<String, URI> services = new TreeMap<>();
        configuration.matching(SERVICE_URL).forEach((property, url) -> {
            String name = property.substring(prefix.length(), property.length() - ".url".length());
            // The value is not echoed: a URL may carry credentials (the resolver's own message
            // shows it without them).
            URI uri;
            try {
                uri = new URI(url);
            } catch (URISyntaxException e) {
                configuration.problem(property + " is invalid: not a URL (" + e.getReason() + " at index "
                        + e.getIndex() + ")");
                return;
            }
            try {
                HttpServiceResolver.of(Map.of(name, uri));
                services.put(name, uri);
            } catch (IllegalArgumentException e) {
                configuration.problem(property + " is invalid: " + e.getMessage());
            }
        });
        return services;
    }
}
