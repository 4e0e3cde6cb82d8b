package org.eeoutbox.http;

import java.net.URI;
import java.time.Duration;

/**
 * Every message of this module, in one place: exception messages for rejected input, and the
 * failure reasons a delivery reports (stored as the entry's {@code lastError}).
 *
 * <p>Values that come from callers, the database or a receiver are always passed through
 * {@link #quote}, which escapes control characters and bounds the length, so a hostile value
 * can neither forge log lines nor flood the {@code lastError} column.
 */
final class HttpMessages {

    /** The longest quoted value kept in a message, in characters. */
    private static final int MAX_QUOTED = 120;

    private HttpMessages() {
    }

    // ---- Builder and metadata validation (IllegalArgumentException messages) ----

    static String mustNotBeNull(String argument) {
        return argument + " must not be null";
    }

    static String badServiceName(String name) {
        return "serviceName must be 1 to " + HttpRules.MAX_SERVICE_NAME_LENGTH
                + " letters, digits, '.', '_' or '-', starting with a letter or digit, got: " + quote(name);
    }

    static String pathTooLong(int length) {
        return "path must be at most " + HttpRules.MAX_PATH_LENGTH + " characters, got: " + length;
    }

    static String pathHasCrLf(String path, int index) {
        return "path must not contain CR or LF, found at index " + index + " of " + quote(path);
    }

    static String pathHasControl(String path, int index) {
        return "path must not contain control characters, found " + codePoint(path.charAt(index))
                + " at index " + index + " of " + quote(path);
    }

    static String pathHasSpace(String path, int index) {
        return "path must not contain spaces (percent-encode them as %20), found at index " + index + " of "
                + quote(path);
    }

    static String pathHasScheme(String path) {
        return "path must not contain a scheme or an authority ('://'): the service's configured base URL "
                + "chooses the host, got: " + quote(path);
    }

    static String pathNotAbsolute(String path) {
        return "path must start with '/', got: " + quote(path);
    }

    static String pathStartsWithDoubleSlash(String path) {
        return "path must not start with '//' (it would name another host), got: " + quote(path);
    }

    static String pathHasBadCharacter(String path, int index) {
        return "path must hold only URI path and query characters (percent-encode others), found "
                + codePoint(path.charAt(index)) + " at index " + index + " of " + quote(path);
    }

    static String pathHasBadPercent(String path, int index) {
        return "path has a '%' not followed by two hex digits at index " + index + " of " + quote(path);
    }

    static String pathHasDotSegment(String path) {
        return "path must not contain '.' or '..' segments (plain or percent-encoded), got: " + quote(path);
    }

    static String headerNameInvalid(String name, int index) {
        if (name.isEmpty()) {
            return "header name must not be empty";
        }
        if (index < 0) {
            return "header name must be at most " + HttpRules.MAX_HEADER_NAME_LENGTH + " characters, got: "
                    + name.length() + " characters";
        }
        return "header name " + quote(name) + " is not a valid HTTP token: " + codePoint(name.charAt(index))
                + " at index " + index + " is not allowed";
    }

    static String headerRestricted(String name) {
        return "header " + quote(name) + " is not allowed: it is hop-by-hop or set by the HTTP client itself";
    }

    static String headerIsContentType(String name) {
        return "header " + quote(name) + " is not allowed: set the content type with contentType(...)";
    }

    static String headerValueNull(String name) {
        return "value of header " + quote(name) + " must not be null";
    }

    static String headerValueHasCrLfNul(String name, int index) {
        return "value of header " + quote(name) + " must not contain CR, LF or NUL, found at index " + index;
    }

    static String headerValueHasControl(String name, String value, int index) {
        return "value of header " + quote(name) + " must not contain control characters, found "
                + codePoint(value.charAt(index)) + " at index " + index;
    }

    static String headerValueNotLatin1(String name, String value, int index) {
        return "value of header " + quote(name) + " must be ISO-8859-1 text, found "
                + codePoint(value.charAt(index)) + " at index " + index;
    }

    static String headerValueTooLong(String name, int length) {
        return "value of header " + quote(name) + " must be at most " + HttpRules.MAX_HEADER_VALUE_LENGTH
                + " characters, got: " + length;
    }

    static String tooManyHeaders(String name) {
        return "at most " + HttpDelivery.MAX_HEADERS + " headers are allowed: header " + quote(name)
                + " would be number " + (HttpDelivery.MAX_HEADERS + 1);
    }

    static String badContentType(String contentType) {
        return "contentType must be a media type such as \"application/json\" or "
                + "\"text/plain; charset=utf-8\", got: " + quote(contentType);
    }

    static String badBaseUrl(String serviceName, URI baseUrl, String rule) {
        return "base URL of HTTP service " + service(serviceName) + " " + rule + ", got: "
                + quote(withoutUserInfo(baseUrl));
    }

    /** The URL as text with its user info (credentials) replaced by {@code ***}. */
    private static String withoutUserInfo(URI url) {
        if (url == null || url.getRawUserInfo() == null) {
            return String.valueOf(url);
        }
        return url.toString().replace(url.getRawUserInfo() + "@", "***@");
    }

    // ---- Metadata read back from the database ----

    static String metadataNotJson(String problem) {
        return "metadata is not a JSON object: " + problem;
    }

    static String metadataFieldMissing(String field) {
        return "metadata field \"" + field + "\" is missing";
    }

    static String metadataFieldType(String field, String expected, String actual) {
        return "metadata field \"" + field + "\" must be " + expected + ", got: " + actual;
    }

    static String metadataBadMethod(String method) {
        return "metadata field \"method\" must be one of POST, PUT, PATCH, got: " + quote(method);
    }

    // ---- Settings ----

    static String durationOutOfRange(String name, Duration min, Duration max, Duration value) {
        return name + " must be in [" + min + ", " + max + "], got: " + value;
    }

    static String intOutOfRange(String name, int min, int max, int value) {
        return name + " must be in [" + min + ", " + max + "], got: " + value;
    }

    // ---- Delivery failure reasons (lastError) ----

    static String wrongDeliveryType(String type) {
        return "entry of delivery type " + quote(type) + " was given to the HTTP deliverer";
    }

    static String invalidMetadata(String problem) {
        return "invalid HTTP delivery metadata, not sent: " + problem;
    }

    static String unknownService(String serviceName) {
        return "unknown HTTP service " + service(serviceName)
                + ": no base URL is configured for it (outbox.http.service."
                + serviceName + ".url)";
    }

    static String resolverFailed(String serviceName, Throwable error) {
        return "resolving HTTP service " + service(serviceName) + " failed: " + describe(error);
    }

    static String leavesHost(String serviceName, String target) {
        return "request URL " + quote(target) + " would leave the base URL of HTTP service " + service(serviceName)
                + ", not sent";
    }

    /** Why {@code client} cannot be used: its artifact is missing, and what to do instead. */
    static String requestRejected(String serviceName, Throwable error) {
        return "request to HTTP service " + service(serviceName) + " could not be built: " + describe(error);
    }

    static String status(int status, String serviceName, String location, String body, boolean truncated) {
        StringBuilder reason = new StringBuilder("HTTP ").append(status).append(" from service ")
                .append(service(serviceName));
        if (location != null) {
            reason.append(" (redirect to ").append(quote(location)).append(" not followed)");
        }
        if (!body.isEmpty()) {
            reason.append(": ").append(body);
            if (truncated) {
                reason.append(" [truncated]");
            }
        }
        return reason.toString();
    }

    static String tlsFailure(String serviceName, Throwable tls) {
        return "TLS failure with HTTP service " + service(serviceName) + ": " + describe(tls);
    }

    static String connectTimeout(String serviceName, Duration timeout) {
        return "could not connect to HTTP service " + service(serviceName) + " within the connect timeout of "
                + timeout;
    }

    static String requestTimeout(String serviceName, Duration timeout) {
        return "no response from HTTP service " + service(serviceName) + " within the request timeout of " + timeout;
    }

    static String connectFailed(String serviceName, Throwable error) {
        return "could not connect to HTTP service " + service(serviceName) + ": " + describe(error);
    }

    static String ioFailure(String serviceName, Throwable error) {
        return "I/O error with HTTP service " + service(serviceName) + ": " + describe(error);
    }

    static String unexpectedFailure(String serviceName, Throwable error) {
        return "unexpected failure sending to HTTP service " + service(serviceName) + ": " + describe(error);
    }

    static String closed() {
        return "the HTTP deliverer is closed; not sent";
    }

    static String interruptedBeforeSending() {
        return "interrupted before sending; not sent";
    }

    static String interruptedWhileWaiting(String serviceName) {
        return "interrupted while waiting for HTTP service " + service(serviceName) + "; the request may have arrived";
    }

    static String deliverFailed(Throwable error) {
        return "HTTP deliverer failed unexpectedly: " + describe(error);
    }

    // ---- Helpers ----

    /** Returns the class and message of {@code error}, quoted. */
    static String describe(Throwable error) {
        String message = error.getMessage();
        return error.getClass().getName() + (message == null ? "" : ": " + escape(message, MAX_QUOTED * 2));
    }

    /**
     * Returns {@code value} in double quotes, with control characters escaped and cut to
     * {@value #MAX_QUOTED} characters; {@code null} for {@code null}.
     */
    static String quote(String value) {
        if (value == null) {
            return "null";
        }
        return '"' + escape(value, MAX_QUOTED) + '"';
    }

    private static String escape(String value, int max) {
        StringBuilder out = new StringBuilder(Math.min(value.length(), max) + 8);
        int end = Math.min(value.length(), max);
        if (end < value.length() && end > 0 && Character.isHighSurrogate(value.charAt(end - 1))) {
            end--;
        }
        for (int i = 0; i < end; i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\r' -> out.append("\\r");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20 || c == 0x7f || Character.isSurrogate(c) && !validSurrogateAt(value, i)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        if (value.length() > max) {
            out.append("...(").append(value.length()).append(" chars)");
        }
        return out.toString();
    }

    /**
     * Returns a service name in single quotes. Names reaching a failure reason have passed
     * {@link HttpRules#requireServiceName}, so they hold no character that needs escaping; any
     * other value is quoted and escaped.
     */
    static String service(String serviceName) {
        try {
            return "'" + HttpRules.requireServiceName(serviceName) + "'";
        } catch (IllegalArgumentException e) {
            return quote(serviceName);
        }
    }

    private static boolean validSurrogateAt(String value, int i) {
        char c = value.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(value.charAt(i - 1));
    }

    private static String codePoint(char c) {
        return String.format("U+%04X", (int) c);
    }
}
