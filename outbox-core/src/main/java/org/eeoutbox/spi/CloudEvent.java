package org.eeoutbox.spi;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxHeaders;
import org.eeoutbox.TraceContext;
import org.eeoutbox.config.Property;

/**
 * An outbox entry as a <a href="https://github.com/cloudevents/spec/blob/v1.0.2/cloudevents/spec.md">CloudEvents
 * 1.0</a> event, for transports that offer the format: {@code id} is the entry's id (stable across
 * retries, like {@code x-outbox-id}), {@code type} its message type, {@code source} the configured
 * {@link #SOURCE}, {@code time} its publish time, {@code subject} its ordering key (absent without
 * one), {@code datacontenttype} the payload's content type and the data its payload; with a trace
 * context, the <a href="https://github.com/cloudevents/spec/blob/main/cloudevents/extensions/distributed-tracing.md">distributed
 * tracing extension</a>'s {@code traceparent} and {@code tracestate}, the same values as the
 * protocol's trace headers (one hop, from the outbox to the receiver).
 *
 * <p>Two modes, as the protocol bindings define them: {@linkplain Mode#BINARY binary} (the
 * attributes in headers, {@link #attributes()}; the payload unchanged as the body or record value)
 * and {@linkplain Mode#STRUCTURED structured} (one JSON envelope, {@link #structuredJson()}, with
 * the content type {@value #STRUCTURED_CONTENT_TYPE}). Immutable.
 *
 * @param id              the entry's id
 * @param source          the producer, a URI reference
 * @param type            the message type
 * @param time            when the entry was published
 * @param subject         the entry's {@linkplain OutboxEntry#orderingKey() ordering key}, or
 *                        {@code null} (the attribute is then left out)
 * @param dataContentType the payload's media type, for example {@code application/json}
 * @param data            the payload
 * @param trace           the {@linkplain OutboxEntry#traceContext() entry's trace context}, or
 *                        {@code null} (the extension is then left out)
 */
public record CloudEvent(String id, URI source, String type, Instant time, String subject, String dataContentType,
                         String data, TraceContext trace) {

    /** The CloudEvents version these events follow, {@value}. */
    public static final String SPEC_VERSION = "1.0";

    /** The media type of a structured-mode event, {@value}. */
    public static final String STRUCTURED_CONTENT_TYPE = "application/cloudevents+json";

    /** The {@code source} when none is configured, {@code urn:eeoutbox}: set one that names your service. */
    public static final URI DEFAULT_SOURCE = URI.create("urn:eeoutbox");

    /** Where the events come from: the {@code source} attribute of every event the transports send. */
    public static final Property<String> SOURCE = Property.text("outbox.cloudevents.source", DEFAULT_SOURCE.toString(),
            "a URI reference, for example https://orders.example.com or /orders",
            "The CloudEvents `source` of the events this application sends (HTTP services and Kafka deliveries "
                    + "in a CloudEvents mode).");

    /** How an event travels. */
    public enum Mode {
        /** Attributes as headers ({@code ce-*} over HTTP, {@code ce_*} on Kafka), the payload as it is. */
        BINARY,
        /** One JSON envelope holding the attributes and the payload. */
        STRUCTURED;

        /**
         * Returns the mode named {@code name}, {@code binary} or {@code structured}, in any case.
         *
         * @throws IllegalArgumentException naming the accepted values otherwise
         */
        public static Mode of(String name) {
            for (Mode mode : values()) {
                if (mode.name().equalsIgnoreCase(name)) {
                    return mode;
                }
            }
            throw new IllegalArgumentException("CloudEvents mode must be binary or structured, got: " + name);
        }

        /** Returns the lower-case name, as in configuration. */
        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** @throws NullPointerException naming the missing component */
    public CloudEvent {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(dataContentType, "dataContentType");
        Objects.requireNonNull(data, "data");
    }

    /** Returns the event of {@code entry}, whose payload has the media type {@code dataContentType}. */
    public static CloudEvent of(OutboxEntry entry, URI source, String dataContentType) {
        return new CloudEvent(entry.id().toString(), source, entry.messageType(), entry.createdAt(),
                entry.orderingKey(), dataContentType, entry.payload(), entry.traceContext());
    }

    /**
     * Parses a {@link #SOURCE} value.
     *
     * @throws IllegalArgumentException if it is empty or not a URI reference; the message names
     *                                  the property
     */
    public static URI source(String value) {
        try {
            if (value == null || value.isBlank()) {
                throw new URISyntaxException(String.valueOf(value), "empty");
            }
            return new URI(value);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(SOURCE.name() + "=" + value + " is invalid: not a URI reference ("
                    + e.getReason() + ")");
        }
    }

    /**
     * Returns the context attributes for binary mode, names without their binding's prefix, in
     * the order {@code specversion, id, source, type, time}, then {@code subject} if there is one,
     * then {@code traceparent} and {@code tracestate} if there are.
     * The content type is not among them:
     * bindings carry it in their own content-type header.
     */
    public Map<String, String> attributes() {
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("specversion", SPEC_VERSION);
        attributes.put("id", id);
        attributes.put("source", source.toString());
        attributes.put("type", type);
        attributes.put("time", time.toString());
        if (subject != null) {
            attributes.put("subject", subject);
        }
        if (trace != null) {
            attributes.put(OutboxHeaders.TRACEPARENT, trace.traceparent());
            if (trace.tracestate() != null) {
                attributes.put(OutboxHeaders.TRACESTATE, trace.tracestate());
            }
        }
        return attributes;
    }

    /**
     * Returns the event in the JSON event format: the attributes, {@code datacontenttype}, and the
     * payload as {@code data}, embedded as JSON when the content type is JSON ({@code application/json}
     * or a {@code +json} type: the payload must then be JSON text), as a JSON string otherwise.
     */
    public String structuredJson() {
        StringBuilder json = new StringBuilder(data.length() + 256).append('{');
        attributes().forEach((name, value) -> appendString(json.append('"').append(name).append("\":"), value)
                .append(','));
        appendString(json.append("\"datacontenttype\":"), dataContentType).append(",\"data\":");
        if (isJson(dataContentType)) {
            json.append(data);
        } else {
            appendString(json, data);
        }
        return json.append('}').toString();
    }

    /** Whether {@code mediaType} is JSON: {@code application/json} or a {@code +json} type, parameters aside. */
    static boolean isJson(String mediaType) {
        String type = mediaType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        return type.equals("application/json") || type.endsWith("+json");
    }

    /** Appends {@code value} as a JSON string. */
    private static StringBuilder appendString(StringBuilder json, String value) {
        json.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        return json.append('"');
    }
}
