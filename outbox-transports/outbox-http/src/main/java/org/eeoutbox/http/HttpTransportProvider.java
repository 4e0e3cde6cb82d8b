package org.eeoutbox.http;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.config.Property;
import org.eeoutbox.spi.CloudEvent;
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
    private static final String SERVICE_PREFIX = "outbox.http.service.";

    static final Property<String> CLIENT = Property.oneOf("outbox.http.client", "auto",
            List.of("auto", "jdk", "apache"),
            "The HTTP client: Apache HttpClient 5 (needs org.apache.httpcomponents.client5:httpclient5 in the "
                    + "application; its threads come from the managed thread factory), the JDK HttpClient (no "
                    + "dependency), or auto: apache when present, else jdk.");
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

    static final Property<String> SIGNING_SECRET = Property.text("outbox.http.service.<name>.signing-secret", null,
            "comma-separated secrets, each the base64 of 24 to 64 bytes, with or without whsec_",
            "Signs every request to the service (Standard Webhooks); several secrets during a rotation. "
                    + "Never logged.");
    static final Property<String> CLOUD_EVENTS = Property.oneOf("outbox.http.service.<name>.cloudevents", "none",
            List.of("none", "binary", "structured"),
            "Sends the service's requests as CloudEvents 1.0: attributes in ce-* headers (binary) or a JSON "
                    + "envelope (structured).");

    /** Public for {@link java.util.ServiceLoader}. */
    public HttpTransportProvider() {
    }

    @Override
    public String deliveryType() {
        return HttpDelivery.DELIVERY_TYPE;
    }

    /**
     * Leases: a webhook batch waits on receivers for milliseconds to seconds, which lease mode
     * spends with no transaction or connection held and with the next batch already in flight
     * (BENCHMARKS.md, "the default claim mode of webhooks").
     */
    @Override
    public boolean leasedByDefault() {
        return true;
    }

    @Override
    public List<Property<?>> properties() {
        return List.of(CLIENT, CONNECT_TIMEOUT, REQUEST_TIMEOUT, MAX_IN_FLIGHT, SERVICE_URL, SIGNING_SECRET,
                CLOUD_EVENTS);
    }

    @Override
    public void check(Configuration configuration) {
        client(configuration);
        settings(configuration);
        options(configuration, services(configuration).keySet());
    }

    @Override
    public Optional<MessageDeliverer> create(TransportContext context) {
        Configuration configuration = context.configuration();
        HttpClientKind client = client(configuration);
        HttpDelivererSettings settings = settings(configuration);
        Map<String, URI> services = services(configuration);
        Map<String, HttpServiceOptions> options = options(configuration, services.keySet());
        configuration.throwIfInvalid();
        LOG.log(Level.INFO, "Outbox HTTP client: {0}, services: {1}, options: {2}", client.propertyValue(), services,
                options);
        // The JDK client makes no threads through the factory: the managed one is looked up only when used.
        ThreadFactory threads = client == HttpClientKind.APACHE ? context.threadFactory()
                : Executors.defaultThreadFactory();
        return Optional.of(new HttpMessageDeliverer(HttpServiceResolver.of(services, options), client,
                context.executor(), threads, context.clock(), settings, null));
    }

    /** The client {@code outbox.http.client} names; a problem (and the JDK client) when it is missing. */
    private static HttpClientKind client(Configuration configuration) {
        String value = configuration.get(CLIENT);
        if (value.equalsIgnoreCase("auto")) {
            HttpClientKind preferred = HttpClientKind.preferred();
            if (preferred == HttpClientKind.JDK && HttpClientKind.apacheOnClassPath()) {
                LOG.log(Level.WARNING, "{0}=auto uses the jdk client: {1}", CLIENT.name(),
                        HttpClientKind.APACHE.unavailability().orElseThrow());
            }
            return preferred;
        }
        HttpClientKind client = value.equalsIgnoreCase("apache") ? HttpClientKind.APACHE : HttpClientKind.JDK;
        Optional<String> unavailability = client.unavailability();
        if (unavailability.isPresent()) {
            configuration.problem(CLIENT.name() + "=" + value + " is invalid: " + unavailability.get());
            return HttpClientKind.JDK;
        }
        return client;
    }

    private static HttpDelivererSettings settings(Configuration configuration) {
        return new HttpDelivererSettings(configuration.get(CONNECT_TIMEOUT), configuration.get(REQUEST_TIMEOUT),
                configuration.get(MAX_IN_FLIGHT));
    }

    /** The service name in {@code key}, a key of the family {@code outbox.http.service.<name>.<suffix>}. */
    private static String serviceName(String key, String suffix) {
        return key.substring(SERVICE_PREFIX.length(), key.length() - suffix.length());
    }

    /** The options of the services that have any, each checked against {@code services}. */
    private static Map<String, HttpServiceOptions> options(Configuration configuration, Set<String> services) {
        Map<String, WebhookSigner> signers = new TreeMap<>();
        configuration.matching(SIGNING_SECRET).forEach((property, secrets) -> {
            try {
                signers.put(serviceName(property, ".signing-secret"), WebhookSigner.of(List.of(secrets.split(","))));
            } catch (IllegalArgumentException e) {
                // The message of WebhookSigner never holds a secret; neither does this one.
                configuration.problem(property + " is invalid: " + e.getMessage());
            }
        });
        Map<String, CloudEvent.Mode> modes = new TreeMap<>();
        configuration.matching(CLOUD_EVENTS).forEach((property, mode) -> {
            if (!mode.equalsIgnoreCase("none")) {
                try {
                    modes.put(serviceName(property, ".cloudevents"), CloudEvent.Mode.of(mode));
                } catch (IllegalArgumentException e) {
                    configuration.problem(property + "=" + mode + " is invalid: expected one of none, binary, structured");
                }
            }
        });
        URI source = null;
        if (!modes.isEmpty()) {
            try {
                source = CloudEvent.source(configuration.get(CloudEvent.SOURCE));
            } catch (IllegalArgumentException e) {
                configuration.problem(e.getMessage());
            }
        }
        Set<String> named = new TreeSet<>(signers.keySet());
        named.addAll(modes.keySet());
        Map<String, HttpServiceOptions> options = new TreeMap<>();
        for (String name : named) {
            if (!services.contains(name)) {
                configuration.problem("outbox.http.service." + name + " has options but no " + SERVICE_PREFIX + name
                        + ".url");
            } else if (source != null || !modes.containsKey(name)) {
                options.put(name, new HttpServiceOptions(signers.get(name), modes.get(name), source));
            }
        }
        return options;
    }

    private static Map<String, URI> services(Configuration configuration) {
        Map<String, URI> services = new TreeMap<>();
        configuration.matching(SERVICE_URL).forEach((property, url) -> {
            String name = serviceName(property, ".url");
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
