package org.eeoutbox.http;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Set;

/**
 * The checks on everything that ends up in a request: service names, paths, header names and
 * values, content types and base URLs. The builder runs them on user input, the deliverer runs
 * them again on metadata read back from the database, so a tampered row can never become a
 * request. Each check throws {@link IllegalArgumentException} with a message from
 * {@link HttpMessages} naming the argument or the header.
 */
final class HttpRules {

    static final int MAX_SERVICE_NAME_LENGTH = 128;
    static final int MAX_PATH_LENGTH = 2048;
    static final int MAX_HEADER_NAME_LENGTH = 256;
    static final int MAX_HEADER_VALUE_LENGTH = 8192;
    static final int MAX_CONTENT_TYPE_LENGTH = 255;

    /**
     * Headers a delivery may not set, lower case: hop-by-hop headers (RFC 9110 section 7.6.1),
     * headers the client computes itself, and {@code Expect}. {@code Proxy-*} is checked as a
     * prefix.
     */
    private static final Set<String> RESTRICTED_HEADERS = Set.of(
            "connection", "content-length", "expect", "host", "http2-settings", "keep-alive", "te", "trailer",
            "transfer-encoding", "upgrade");

    private HttpRules() {
    }

    /** A service name: letters, digits, '.', '_', '-', starting with a letter or digit. */
    static String requireServiceName(String name) {
        if (name == null) {
            throw new IllegalArgumentException(HttpMessages.mustNotBeNull("serviceName"));
        }
        if (name.isEmpty() || name.length() > MAX_SERVICE_NAME_LENGTH || !isAlphaNumeric(name.charAt(0))) {
            throw new IllegalArgumentException(HttpMessages.badServiceName(name));
        }
        for (int i = 1; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!isAlphaNumeric(c) && c != '.' && c != '_' && c != '-') {
                throw new IllegalArgumentException(HttpMessages.badServiceName(name));
            }
        }
        return name;
    }

    /**
     * A path (with an optional query) relative to the service's base URL: starts with one
     * {@code /}, holds only RFC 3986 path and query characters with well-formed percent-escapes,
     * no scheme, no dot segments (also percent-encoded ones), no fragment. The empty path, which
     * stands for the base URL itself, is accepted only where {@code allowEmpty}.
     */
    static String requirePath(String path, boolean allowEmpty) {
        if (path == null) {
            throw new IllegalArgumentException(HttpMessages.mustNotBeNull("path"));
        }
        if (path.isEmpty() && allowEmpty) {
            return path;
        }
        if (path.length() > MAX_PATH_LENGTH) {
            throw new IllegalArgumentException(HttpMessages.pathTooLong(path.length()));
        }
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '\r' || c == '\n') {
                throw new IllegalArgumentException(HttpMessages.pathHasCrLf(path, i));
            }
        }
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)) {
                throw new IllegalArgumentException(HttpMessages.pathHasControl(path, i));
            }
            if (c == ' ') {
                throw new IllegalArgumentException(HttpMessages.pathHasSpace(path, i));
            }
        }
        if (path.contains("://")) {
            throw new IllegalArgumentException(HttpMessages.pathHasScheme(path));
        }
        if (path.isEmpty() || path.charAt(0) != '/') {
            throw new IllegalArgumentException(HttpMessages.pathNotAbsolute(path));
        }
        if (path.startsWith("//")) {
            throw new IllegalArgumentException(HttpMessages.pathStartsWithDoubleSlash(path));
        }
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '%') {
                if (i + 2 >= path.length() || hex(path.charAt(i + 1)) < 0 || hex(path.charAt(i + 2)) < 0) {
                    throw new IllegalArgumentException(HttpMessages.pathHasBadPercent(path, i));
                }
            } else if (!isPathOrQueryChar(c)) {
                throw new IllegalArgumentException(HttpMessages.pathHasBadCharacter(path, i));
            }
        }
        int query = path.indexOf('?');
        String pathPart = query < 0 ? path : path.substring(0, query);
        if (hasDotSegment(pathPart)) {
            throw new IllegalArgumentException(HttpMessages.pathHasDotSegment(path));
        }
        return path;
    }

    /**
     * A header a delivery may set: the name is an RFC 9110 token and not restricted, the value
     * holds no CR, LF, NUL or other control character (horizontal tab aside) and is ISO-8859-1.
     */
    static void requireHeader(String name, String value) {
        requireHeaderName(name);
        if (value == null) {
            throw new IllegalArgumentException(HttpMessages.headerValueNull(name));
        }
        requireHeaderValue(name, value);
    }

    private static void requireHeaderName(String name) {
        if (name == null) {
            throw new IllegalArgumentException(HttpMessages.mustNotBeNull("header name"));
        }
        if (name.isEmpty()) {
            throw new IllegalArgumentException(HttpMessages.headerNameInvalid(name, 0));
        }
        if (name.length() > MAX_HEADER_NAME_LENGTH) {
            throw new IllegalArgumentException(HttpMessages.headerNameInvalid(name, -1));
        }
        for (int i = 0; i < name.length(); i++) {
            if (!isTokenChar(name.charAt(i))) {
                throw new IllegalArgumentException(HttpMessages.headerNameInvalid(name, i));
            }
        }
        String lower = name.toLowerCase(Locale.ROOT);
        if (RESTRICTED_HEADERS.contains(lower) || lower.startsWith("proxy-")) {
            throw new IllegalArgumentException(HttpMessages.headerRestricted(name));
        }
        if (lower.equals("content-type")) {
            throw new IllegalArgumentException(HttpMessages.headerIsContentType(name));
        }
    }

    private static void requireHeaderValue(String name, String value) {
        if (value.length() > MAX_HEADER_VALUE_LENGTH) {
            throw new IllegalArgumentException(HttpMessages.headerValueTooLong(name, value.length()));
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\r' || c == '\n' || c == 0) {
                throw new IllegalArgumentException(HttpMessages.headerValueHasCrLfNul(name, i));
            }
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7f) {
                throw new IllegalArgumentException(HttpMessages.headerValueHasControl(name, value, i));
            }
            if (c > 0xff) {
                throw new IllegalArgumentException(HttpMessages.headerValueNotLatin1(name, value, i));
            }
        }
    }

    /** A media type: {@code type/subtype} tokens, then optional parameters of header-value text. */
    static String requireContentType(String contentType) {
        if (contentType == null) {
            throw new IllegalArgumentException(HttpMessages.mustNotBeNull("contentType"));
        }
        if (contentType.length() > MAX_CONTENT_TYPE_LENGTH) {
            throw new IllegalArgumentException(HttpMessages.badContentType(contentType));
        }
        int slash = contentType.indexOf('/');
        int semicolon = contentType.indexOf(';');
        int end = semicolon < 0 ? contentType.length() : semicolon;
        String subtype = slash < 0 || slash > end ? "" : contentType.substring(slash + 1, end).stripTrailing();
        if (slash <= 0 || !isToken(contentType.substring(0, slash)) || !isToken(subtype)) {
            throw new IllegalArgumentException(HttpMessages.badContentType(contentType));
        }
        for (int i = 0; i < contentType.length(); i++) {
            char c = contentType.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7f || c > 0xff) {
                throw new IllegalArgumentException(HttpMessages.badContentType(contentType));
            }
        }
        return contentType;
    }

    /**
     * Returns what is wrong with a base URL, or {@code null} if it is usable: absolute
     * {@code http} or {@code https}, with a host, without user info, query or fragment, and
     * without dot segments in its path.
     */
    static String baseUrlProblem(URI baseUrl) {
        if (baseUrl == null) {
            return "must not be null";
        }
        String scheme = baseUrl.getScheme();
        if (scheme == null || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
            return "must be an absolute http or https URL";
        }
        if (baseUrl.isOpaque() || baseUrl.getHost() == null || baseUrl.getHost().isEmpty()) {
            return "must name a host";
        }
        if (baseUrl.getRawUserInfo() != null) {
            return "must not contain user info (credentials)";
        }
        if (baseUrl.getRawQuery() != null || baseUrl.getRawFragment() != null) {
            return "must not have a query or a fragment";
        }
        String rawPath = baseUrl.getRawPath();
        if (rawPath != null && !rawPath.isEmpty() && hasDotSegment(rawPath)) {
            return "must not contain '.' or '..' segments";
        }
        return null;
    }

    /**
     * Returns the request URL for a checked base URL and a checked path: the base URL with the
     * path appended (one {@code /} between them), or {@code null} if the result would not stay
     * on the base URL's scheme, host and port, or below its path.
     */
    static URI resolve(URI baseUrl, String path) {
        String base = baseUrl.toString();
        String basePath = baseUrl.getRawPath() == null ? "" : baseUrl.getRawPath();
        if (!path.isEmpty() && base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
            basePath = basePath.substring(0, basePath.length() - 1);
        }
        URI target;
        try {
            target = new URI(base + path);
        } catch (URISyntaxException e) {
            return null;
        }
        boolean sameOrigin = target.getScheme() != null && target.getScheme().equalsIgnoreCase(baseUrl.getScheme())
                && target.getHost() != null && target.getHost().equalsIgnoreCase(baseUrl.getHost())
                && target.getPort() == baseUrl.getPort()
                && target.getRawUserInfo() == null
                && target.getRawFragment() == null;
        String targetPath = target.getRawPath() == null ? "" : target.getRawPath();
        boolean below = (basePath.isEmpty() || basePath.endsWith("/") ? targetPath.startsWith(basePath)
                : targetPath.equals(basePath) || targetPath.startsWith(basePath + "/"))
                && !hasDotSegment(targetPath);
        return sameOrigin && below ? target : null;
    }

    /**
     * Whether a raw path has a {@code .} or {@code ..} segment, also after percent-decoding
     * (where an encoded {@code /} or {@code \} may split a segment further).
     */
    private static boolean hasDotSegment(String rawPath) {
        for (String segment : rawPath.split("/", -1)) {
            String decoded = percentDecode(segment);
            for (String part : decoded.split("[/\\\\]", -1)) {
                if (part.equals(".") || part.equals("..")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Decodes ASCII percent-escapes; enough to spot encoded dots and slashes. */
    private static String percentDecode(String segment) {
        if (segment.indexOf('%') < 0) {
            return segment;
        }
        StringBuilder out = new StringBuilder(segment.length());
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c == '%' && i + 2 < segment.length() && hex(segment.charAt(i + 1)) >= 0
                    && hex(segment.charAt(i + 2)) >= 0) {
                out.append((char) (hex(segment.charAt(i + 1)) * 16 + hex(segment.charAt(i + 2))));
                i += 2;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean isToken(String value) {
        if (value.isEmpty()) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            if (!isTokenChar(value.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** RFC 9110 {@code tchar}. */
    private static boolean isTokenChar(char c) {
        return isAlphaNumeric(c) || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }

    /** RFC 3986 {@code pchar}, plus {@code /} and {@code ?}; {@code %} is checked apart. */
    private static boolean isPathOrQueryChar(char c) {
        return isAlphaNumeric(c) || "-._~!$&'()*+,;=:@/?".indexOf(c) >= 0;
    }

    private static boolean isAlphaNumeric(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
