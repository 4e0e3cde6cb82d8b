package org.eeoutbox.http;

/**
 * The HTTP methods an {@link HttpDelivery} may use: those that carry the payload as a request
 * body. {@code POST} is the default.
 */
public enum HttpMethod {
    /** {@code POST}, the default. */
    POST,
    /** {@code PUT}. */
    PUT,
    /** {@code PATCH}. */
    PATCH
}
