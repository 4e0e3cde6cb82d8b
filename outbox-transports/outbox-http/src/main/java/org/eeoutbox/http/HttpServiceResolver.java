package org.eeoutbox.http;

import java.net.URI;
import java.util.Map;
import java.util.Optional;

/**
 * Maps the logical service name of an {@link HttpDelivery} to the base URL its requests go to.
 * The runtime supplies it, from configuration (for example the MicroProfile Config property
 * {@code outbox.http.service.<name>.url}) or from {@link #of(Map)}; a payload never chooses
 * the host.
 *
 * <p>Contract for implementations:
 * <ul>
 *   <li>{@link #resolve} returns an empty {@code Optional} for a service it does not know; the
 *       deliverer then fails the entry permanently, naming the service.</li>
 *   <li>A base URL is an absolute {@code http} or {@code https} URL with a host and without user
 *       info, query or fragment; it may have a path, to which the delivery's path is appended.
 *       The deliverer checks this on every resolution and fails the entry permanently if it is
 *       not so.</li>
 *   <li>It should not throw: if it does, the deliverer reports a retriable failure.</li>
 *   <li>It is thread-safe and fast (called once per entry, from several threads at once).</li>
 * </ul>
 */
@FunctionalInterface
public interface HttpServiceResolver {

    /**
     * Returns the base URL of the named service, or empty if the service is unknown.
     *
     * @param serviceName a service name as checked by {@link HttpDelivery#to}
     */
    Optional<URI> resolve(String serviceName);

    /**
     * Returns how requests to the named service are signed and formatted; the default,
     * {@link HttpServiceOptions#PLAIN}, neither signs nor wraps them. Same contract as
     * {@link #resolve}: thread-safe, fast, should not throw (if it does, the entry is retried).
     *
     * @param serviceName a service name {@link #resolve} knows
     */
    default HttpServiceOptions options(String serviceName) {
        return HttpServiceOptions.PLAIN;
    }

    /**
     * Returns a resolver backed by a copy of {@code baseUrls}, for standalone use and tests.
     * Thread-safe and immutable.
     *
     * @param baseUrls service names to base URLs
     * @throws IllegalArgumentException if the map, a name or a URL is {@code null}, a name is
     *                                  not a valid service name, or a URL is not a valid base
     *                                  URL; the message names the service
     */
    static HttpServiceResolver of(Map<String, URI> baseUrls) {
        return new MapServiceResolver(baseUrls, Map.of());
    }

    /**
     * As {@link #of(Map)}, with the options of some of the services; the others are
     * {@link HttpServiceOptions#PLAIN}.
     *
     * @throws IllegalArgumentException also if {@code options} names a service without a base URL
     */
    static HttpServiceResolver of(Map<String, URI> baseUrls, Map<String, HttpServiceOptions> options) {
        return new MapServiceResolver(baseUrls, options);
    }
}
