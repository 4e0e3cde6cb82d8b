package org.eeoutbox.http;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The map-backed {@link HttpServiceResolver} of {@link HttpServiceResolver#of}; immutable. */
final class MapServiceResolver implements HttpServiceResolver {

    private final Map<String, URI> baseUrls;
    private final Map<String, HttpServiceOptions> options;

    MapServiceResolver(Map<String, URI> baseUrls, Map<String, HttpServiceOptions> options) {
        if (baseUrls == null) {
            throw new IllegalArgumentException(HttpMessages.mustNotBeNull("baseUrls"));
        }
        Map<String, URI> copy = new LinkedHashMap<>();
        baseUrls.forEach((name, url) -> {
            HttpRules.requireServiceName(name);
            String problem = HttpRules.baseUrlProblem(url);
            if (problem != null) {
                throw new IllegalArgumentException(HttpMessages.badBaseUrl(name, url, problem));
            }
            copy.put(name, url);
        });
        this.baseUrls = Map.copyOf(copy);
        if (options == null) {
            throw new IllegalArgumentException(HttpMessages.mustNotBeNull("options"));
        }
        options.forEach((name, serviceOptions) -> {
            if (!this.baseUrls.containsKey(name) || serviceOptions == null) {
                throw new IllegalArgumentException("options given for service '" + name
                        + "', which has no base URL, or null options");
            }
        });
        this.options = Map.copyOf(options);
    }

    @Override
    public HttpServiceOptions options(String serviceName) {
        return options.getOrDefault(serviceName, HttpServiceOptions.PLAIN);
    }

    @Override
    public Optional<URI> resolve(String serviceName) {
        return serviceName == null ? Optional.empty() : Optional.ofNullable(baseUrls.get(serviceName));
    }

    @Override
    public String toString() {
        return "HttpServiceResolver.of(" + baseUrls.keySet() + (options.isEmpty() ? "" : ", " + options) + ")";
    }
}
