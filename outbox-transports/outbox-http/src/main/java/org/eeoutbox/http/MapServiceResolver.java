package org.eeoutbox.http;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The map-backed {@link HttpServiceResolver} of {@link HttpServiceResolver#of}; immutable. */
final class MapServiceResolver implements HttpServiceResolver {

    private final Map<String, URI> baseUrls;

    MapServiceResolver(Map<String, URI> baseUrls) {
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
    }

    @Override
    public Optional<URI> resolve(String serviceName) {
        return serviceName == null ? Optional.empty() : Optional.ofNullable(baseUrls.get(serviceName));
    }

    @Override
    public String toString() {
        return "HttpServiceResolver.of(" + baseUrls.keySet() + ")";
    }
}
