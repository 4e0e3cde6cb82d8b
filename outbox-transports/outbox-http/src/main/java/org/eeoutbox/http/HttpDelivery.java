package org.eeoutbox.http;

import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.JsonWriter;
import jakarta.json.spi.JsonProvider;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.eeoutbox.DeliveryInfo;

/**
 * Where an entry goes over HTTP: a logical service name, a path below that service's base URL,
 * a method, a content type and extra headers. A payload never chooses the host: the runtime's
 * {@link HttpServiceResolver} maps the service name to a base URL, and the request goes to that
 * base URL plus the path.
 *
 * <pre>{@code
 * HttpDelivery.to("billing")
 *         .path("/webhooks/orders")
 *         .method(HttpMethod.PUT)
 *         .header("X-Tenant", "acme")
 *         .build();
 * }</pre>
 *
 * <p>Every argument is checked when it is given, and a bad one throws
 * {@link IllegalArgumentException} naming the argument or the header:
 * <ul>
 *   <li>the service name is 1 to 128 letters, digits, {@code .}, {@code _} or {@code -},
 *       starting with a letter or digit (it names the property
 *       {@code outbox.http.service.<name>.url});</li>
 *   <li>the path starts with {@code /} but not {@code //}; holds no scheme ({@code ://}), no CR,
 *       LF, space or other control character, no {@code .} or {@code ..} segment (plain or
 *       percent-encoded), no fragment, and only RFC 3986 path and query characters with
 *       well-formed percent-escapes; at most 2048 characters;</li>
 *   <li>header names are RFC 9110 tokens; values hold no CR, LF, NUL or other control
 *       character except tab, and are ISO-8859-1; hop-by-hop and client-managed headers
 *       ({@code Connection}, {@code Content-Length}, {@code Expect}, {@code Host},
 *       {@code HTTP2-Settings}, {@code Keep-Alive}, {@code Proxy-*}, {@code TE}, {@code Trailer},
 *       {@code Transfer-Encoding}, {@code Upgrade}) are rejected, and so is {@code Content-Type},
 *       which {@link Builder#contentType} sets; at most {@value #MAX_HEADERS} headers.</li>
 * </ul>
 * The deliverer runs the same checks on the metadata it reads back, so a row tampered with in
 * the database fails permanently instead of becoming a request.
 *
 * <p>Header values are stored in the outbox table in clear text: do not put long-lived secrets
 * in them.
 *
 * <p>Immutable and thread-safe. {@link #metadataJson()} is written with Jakarta JSON Processing
 * when the delivery is built: {@link Builder#build()} throws {@link JsonException} if no JSON-P
 * implementation is available (every Jakarta EE 10 server has one; elsewhere add, for example,
 * Eclipse Parsson).
 */
public final class HttpDelivery implements DeliveryInfo {

    /** The delivery type of HTTP deliveries: {@value}. */
    public static final String DELIVERY_TYPE = "http";

    /** The content type used unless {@link Builder#contentType} sets another: {@value}. */
    public static final String DEFAULT_CONTENT_TYPE = "application/json";

    /** The most headers one delivery may carry. */
    public static final int MAX_HEADERS = 100;

    static final String FIELD_SERVICE = "service";
    static final String FIELD_PATH = "path";
    static final String FIELD_METHOD = "method";
    static final String FIELD_CONTENT_TYPE = "contentType";
    static final String FIELD_HEADERS = "headers";

    private static volatile JsonProvider jsonProvider;

    private final String serviceName;
    private final String path;
    private final HttpMethod method;
    private final String contentType;
    private final Map<String, String> headers;
    private final String metadataJson;

    /** With {@code metadataJson} the text the delivery was read from, or {@code null} to write it. */
    private HttpDelivery(Builder builder, String metadataJson) {
        this.serviceName = builder.serviceName;
        this.path = builder.path;
        this.method = builder.method;
        this.contentType = builder.contentType;
        Map<String, String> copy = new LinkedHashMap<>();
        builder.headers.values().forEach(header -> copy.put(header.name, header.value));
        this.headers = Collections.unmodifiableMap(copy);
        this.metadataJson = metadataJson == null ? write() : metadataJson;
    }

    /**
     * Starts a delivery to the named service.
     *
     * @param serviceName the logical service, resolved to a base URL by the runtime; 1 to 128
     *                    letters, digits, {@code .}, {@code _} or {@code -}, starting with a
     *                    letter or digit
     * @throws IllegalArgumentException if the name is {@code null} or not of that form
     */
    public static Builder to(String serviceName) {
        return new Builder(serviceName);
    }

    /**
     * Reads a delivery back from its metadata, running every check of the builder again. The
     * delivery keeps {@code json} as its {@link #metadataJson()}, without writing it again.
     *
     * @throws IllegalArgumentException if the text is not a JSON object of the expected shape,
     *                                  or a value breaks a rule; the message says which
     */
    static HttpDelivery fromMetadataJson(String json) {
        if (json == null) {
            throw new IllegalArgumentException(HttpMessages.metadataNotJson("null"));
        }
        JsonObject object;
        try (var reader = json().createReader(new StringReader(json))) {
            object = reader.readObject();
        } catch (JsonException | IllegalStateException e) {
            throw new IllegalArgumentException(HttpMessages.metadataNotJson(HttpMessages.describe(e)), e);
        }
        Builder builder = to(requiredString(object, FIELD_SERVICE));
        builder.path = HttpRules.requirePath(requiredString(object, FIELD_PATH), true);
        String method = requiredString(object, FIELD_METHOD);
        try {
            builder.method(HttpMethod.valueOf(method));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(HttpMessages.metadataBadMethod(method), e);
        }
        builder.contentType(requiredString(object, FIELD_CONTENT_TYPE));
        JsonValue headers = object.get(FIELD_HEADERS);
        if (headers != null) {
            if (headers.getValueType() != JsonValue.ValueType.OBJECT) {
                throw new IllegalArgumentException(
                        HttpMessages.metadataFieldType(FIELD_HEADERS, "an object", headers.getValueType().name()));
            }
            for (Map.Entry<String, JsonValue> header : headers.asJsonObject().entrySet()) {
                JsonValue value = header.getValue();
                if (value.getValueType() != JsonValue.ValueType.STRING) {
                    throw new IllegalArgumentException(HttpMessages.metadataFieldType(
                            FIELD_HEADERS + "." + header.getKey(), "a string", value.getValueType().name()));
                }
                builder.header(header.getKey(), ((JsonString) value).getString());
            }
        }
        return new HttpDelivery(builder, json);
    }

    private static String requiredString(JsonObject object, String field) {
        JsonValue value = object.get(field);
        if (value == null) {
            throw new IllegalArgumentException(HttpMessages.metadataFieldMissing(field));
        }
        if (value.getValueType() != JsonValue.ValueType.STRING) {
            throw new IllegalArgumentException(
                    HttpMessages.metadataFieldType(field, "a string", value.getValueType().name()));
        }
        return ((JsonString) value).getString();
    }

    private String write() {
        JsonProvider json = json();
        JsonObjectBuilder headerObject = json.createObjectBuilder();
        headers.forEach(headerObject::add);
        JsonObject object = json.createObjectBuilder()
                .add(FIELD_SERVICE, serviceName)
                .add(FIELD_PATH, path)
                .add(FIELD_METHOD, method.name())
                .add(FIELD_CONTENT_TYPE, contentType)
                .add(FIELD_HEADERS, headerObject)
                .build();
        StringWriter text = new StringWriter();
        try (JsonWriter writer = json.createWriter(text)) {
            writer.writeObject(object);
        }
        return text.toString();
    }

    /** Returns {@value #DELIVERY_TYPE}. */
    @Override
    public String deliveryType() {
        return DELIVERY_TYPE;
    }

    /**
     * Returns the metadata as a JSON object with the fields {@code service}, {@code path},
     * {@code method}, {@code contentType} and {@code headers} (an object of header names to
     * values): written once when the delivery is built or, for a delivery the deliverer read
     * back, the text it was read from.
     */
    @Override
    public String metadataJson() {
        return metadataJson;
    }

    /** Returns the logical service name. */
    public String serviceName() {
        return serviceName;
    }

    /** Returns the path below the service's base URL; empty for the base URL itself. */
    public String path() {
        return path;
    }

    /** Returns the method. */
    public HttpMethod method() {
        return method;
    }

    /** Returns the content type of the payload. */
    public String contentType() {
        return contentType;
    }

    /** Returns the extra headers, in the order first given; unmodifiable. */
    public Map<String, String> headers() {
        return headers;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof HttpDelivery that && serviceName.equals(that.serviceName) && path.equals(that.path)
                && method == that.method && contentType.equals(that.contentType) && headers.equals(that.headers);
    }

    @Override
    public int hashCode() {
        return Objects.hash(serviceName, path, method, contentType, headers);
    }

    /** Names the headers but leaves out their values, which may hold credentials. */
    @Override
    public String toString() {
        return "HttpDelivery[service=" + serviceName + ", method=" + method + ", path=" + path + ", contentType="
                + contentType + ", headers=" + headers.keySet() + "]";
    }

    /**
     * Builds an {@link HttpDelivery}. Each method checks its argument at once and throws
     * {@link IllegalArgumentException} naming it. A repeated call keeps only the last value; for
     * {@link #header}, per header name compared case-insensitively. Not thread-safe: use one
     * builder per thread.
     */
    public static final class Builder {

        private final String serviceName;
        private String path = "";
        private HttpMethod method = HttpMethod.POST;
        private String contentType = DEFAULT_CONTENT_TYPE;
        private final Map<String, Header> headers = new LinkedHashMap<>();

        private Builder(String serviceName) {
            this.serviceName = HttpRules.requireServiceName(serviceName);
        }

        /**
         * Sets the path, with an optional query, appended to the service's base URL. Defaults to
         * none: the request goes to the base URL itself.
         *
         * @param path starts with {@code /}, see the rules in {@link HttpDelivery}
         * @throws IllegalArgumentException if the path breaks a rule, saying which
         */
        public Builder path(String path) {
            this.path = HttpRules.requirePath(path, false);
            return this;
        }

        /**
         * Sets the method. Defaults to {@link HttpMethod#POST}.
         *
         * @throws IllegalArgumentException if {@code method} is {@code null}
         */
        public Builder method(HttpMethod method) {
            if (method == null) {
                throw new IllegalArgumentException(HttpMessages.mustNotBeNull("method"));
            }
            this.method = method;
            return this;
        }

        /**
         * Adds a header, replacing an earlier one of the same name (compared case-insensitively).
         * Headers named {@code x-outbox-id}, {@code x-outbox-message-type} and
         * {@code x-outbox-attempt} are allowed but always overridden by the deliverer's values.
         *
         * @throws IllegalArgumentException if the name is not a token or is restricted, the value
         *                                  is {@code null} or holds CR, LF, NUL or another control
         *                                  character, or this would be header number 101; the
         *                                  message names the header
         */
        public Builder header(String name, String value) {
            HttpRules.requireHeader(name, value);
            String key = name.toLowerCase(Locale.ROOT);
            if (!headers.containsKey(key) && headers.size() >= MAX_HEADERS) {
                throw new IllegalArgumentException(HttpMessages.tooManyHeaders(name));
            }
            headers.put(key, new Header(name, value));
            return this;
        }

        /**
         * Sets the content type of the payload. Defaults to {@value HttpDelivery#DEFAULT_CONTENT_TYPE}.
         *
         * @param contentType a media type such as {@code text/plain; charset=utf-8}
         * @throws IllegalArgumentException if it is {@code null} or not a media type
         */
        public Builder contentType(String contentType) {
            this.contentType = HttpRules.requireContentType(contentType);
            return this;
        }

        /**
         * Returns the delivery.
         *
         * @throws JsonException if no Jakarta JSON Processing implementation is available
         */
        public HttpDelivery build() {
            return new HttpDelivery(this, null);
        }
    }

    private record Header(String name, String value) {
    }

    /**
     * Returns the JSON-P provider, looked up on first use (the lookup scans the class path, too
     * slow to repeat per entry); a racing first use may look it up twice, harmlessly.
     *
     * @throws JsonException if no JSON-P implementation is available
     */
    static JsonProvider json() {
        JsonProvider provider = jsonProvider;
        if (provider == null) {
            provider = JsonProvider.provider();
            jsonProvider = provider;
        }
        return provider;
    }
}
