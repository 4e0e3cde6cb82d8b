package org.eeoutbox.http;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * A request ready for an {@link HttpSender}, built and checked by {@link HttpRequests}.
 * Immutable.
 *
 * @param method  the method name
 * @param target  the absolute URL
 * @param headers the headers, one value per name; names are compared case-insensitively and none
 *                is one an HTTP client sets itself ({@code Host}, {@code Content-Length}, ...)
 * @param body    the body, possibly empty
 * @param timeout how long to wait for the response once the request is under way
 */
record OutgoingRequest(String method, URI target, Map<String, String> headers, byte[] body, Duration timeout) {

    OutgoingRequest {
        headers = Map.copyOf(headers);
    }
}
