package org.eeoutbox.kafka;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.JsonWriter;
import jakarta.json.spi.JsonProvider;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.eeoutbox.DeliveryInfo;
import org.eeoutbox.OutboxHeaders;
import org.eeoutbox.spi.CloudEvent;

/**
 * Where a message goes on Kafka: a topic, an optional record key and optional record headers.
 * Its delivery type is {@value #DELIVERY_TYPE}; {@link KafkaMessageDeliverer} sends it.
 *
 * <pre>{@code
 * outbox.publish(new OutboxMessage("order.created", json),
 *         KafkaDelivery.topic("order-events").key(orderId).header("tenant", tenant).build());
 * }</pre>
 *
 * <p>The record's value is the message payload, and the key and header values are sent as UTF-8
 * text ({@code StringSerializer}). After the headers given here the deliverer appends
 * {@value OutboxHeaders#MESSAGE_TYPE}, {@value OutboxHeaders#ATTEMPT} and
 * {@value OutboxHeaders#OUTBOX_ID} with the entry's id, and for an entry with an ordering key
 * {@value OutboxHeaders#ORDERING_KEY} and {@value OutboxHeaders#ORDERING_SEQ}; a header of one of
 * those names given here is still sent, but a consumer reading
 * {@code headers().lastHeader("x-outbox-id")} sees the entry's id. Without a {@code key} here, the
 * record's key is the entry's ordering key (if any), so that a key's messages share a partition.
 * For an entry with a {@linkplain org.eeoutbox.OutboxEntry#traceContext() trace context} the
 * deliverer sends {@value OutboxHeaders#TRACEPARENT} and {@value OutboxHeaders#TRACESTATE} instead
 * of any header of those names given here.
 *
 * <p>Every argument is checked when it is given, with an {@link IllegalArgumentException} naming
 * the argument, so an invalid delivery never reaches the outbox table:
 * <ul>
 *   <li>{@code topic}: 1 to {@value #MAX_TOPIC_LENGTH} characters of {@code [a-zA-Z0-9._-]}, and
 *       neither {@code "."} nor {@code ".."} (Kafka's own rules);</li>
 *   <li>{@code header} names: not {@code null} or blank; values: not {@code null}; at most
 *       {@value #MAX_HEADERS} headers.</li>
 * </ul>
 *
 * <p>The metadata stored with the entry is a JSON object written with Jakarta JSON Processing,
 * for example {@code {"topic":"order-events","key":"42","headers":[{"name":"tenant","value":"a"}]}};
 * {@code key} is absent when there is none, {@code headers} keeps order and repeated names;
 * {@code cloudevents} ({@code "binary"} or {@code "structured"}) is present for a
 * {@linkplain Builder#cloudEvents CloudEvents} delivery.
 *
 * <p>Immutable and thread-safe; the {@link Builder} is not thread-safe.
 */
public final class KafkaDelivery implements DeliveryInfo {

    /** The delivery type of Kafka deliveries, {@value}. */
    public static final String DELIVERY_TYPE = "kafka";

    /** The longest topic name Kafka accepts, {@value}. */
    public static final int MAX_TOPIC_LENGTH = 249;

    /** The most headers one delivery may carry, {@value}, not counting {@value OutboxHeaders#OUTBOX_ID}. */
    public static final int MAX_HEADERS = 100;

    private static final String TOPIC = "topic";
    private static final String KEY = "key";
    private static final String HEADERS = "headers";
    private static final String NAME = "name";
    private static final String VALUE = "value";
    private static final String CLOUD_EVENTS = "cloudevents";

    private final String topic;
    private final String key;
    private final List<Header> headers;
    private final CloudEvent.Mode cloudEvents;
    private final String metadataJson;

    /** With {@code metadataJson} the text the delivery was read from, or {@code null} to write it. */
    private KafkaDelivery(String topic, String key, List<Header> headers, CloudEvent.Mode cloudEvents,
                          String metadataJson) {
        this.topic = topic;
        this.key = key;
        this.headers = Collections.unmodifiableList(new ArrayList<>(headers));
        this.cloudEvents = cloudEvents;
        this.metadataJson = metadataJson == null ? toJson() : metadataJson;
    }

    /**
     * Starts a delivery to {@code topic}.
     *
     * @param topic the topic; 1 to 249 characters of {@code [a-zA-Z0-9._-]}, not {@code "."} or
     *              {@code ".."}
     * @throws IllegalArgumentException if {@code topic} is not a legal Kafka topic name
     */
    public static Builder topic(String topic) {
        return new Builder(requireTopic(topic));
    }

    /**
     * Reads a delivery back from its metadata, as stored from {@link #metadataJson()}. Members
     * other than {@code topic}, {@code key}, {@code headers} and {@code cloudevents} are ignored; every rule the
     * builder checks is checked again. The delivery keeps {@code metadataJson} as its
     * {@link #metadataJson()}, without writing it again.
     *
     * @param metadataJson the JSON text of a delivery's metadata
     * @throws IllegalArgumentException if the text is not such a JSON object or breaks a rule,
     *                                  saying which
     */
    public static KafkaDelivery fromMetadataJson(String metadataJson) {
        if (metadataJson == null) {
            throw new IllegalArgumentException("Kafka delivery metadata must not be null");
        }
        JsonObject json;
        try (JsonReader reader = Json.PROVIDER.createReader(new StringReader(metadataJson))) {
            json = reader.readObject();
        } catch (JsonException | IllegalStateException e) {
            throw new IllegalArgumentException("Kafka delivery metadata is not a JSON object: " + e.getMessage(), e);
        }
        Builder builder = topic(string(json, TOPIC, true));
        builder.key(string(json, KEY, false));
        JsonValue headers = json.get(HEADERS);
        if (headers != null && headers.getValueType() != JsonValue.ValueType.NULL) {
            if (headers.getValueType() != JsonValue.ValueType.ARRAY) {
                throw new IllegalArgumentException("Kafka delivery metadata member \"headers\" must be an array, got: "
                        + headers.getValueType());
            }
            for (JsonValue header : (JsonArray) headers) {
                if (header.getValueType() != JsonValue.ValueType.OBJECT) {
                    throw new IllegalArgumentException(
                            "Kafka delivery metadata \"headers\" must hold objects, got: " + header.getValueType());
                }
                builder.header(string((JsonObject) header, NAME, true), string((JsonObject) header, VALUE, true));
            }
        }
        String mode = string(json, CLOUD_EVENTS, false);
        if (mode != null) {
            builder.cloudEvents(CloudEvent.Mode.of(mode));
        }
        return new KafkaDelivery(builder.topic, builder.key, builder.headers, builder.cloudEvents, metadataJson);
    }

    /** Returns {@value #DELIVERY_TYPE}. */
    @Override
    public String deliveryType() {
        return DELIVERY_TYPE;
    }

    /**
     * Returns the metadata as JSON text: written once, when the delivery is built, or the text
     * it was read from by {@link #fromMetadataJson}.
     */
    @Override
    public String metadataJson() {
        return metadataJson;
    }

    /** Returns the topic. */
    public String topic() {
        return topic;
    }

    /** Returns the record key, if there is one; without a key Kafka's partitioner picks the partition. */
    public Optional<String> findKey() {
        return Optional.ofNullable(key);
    }

    /** Returns the headers in the order they are sent; unmodifiable, possibly empty. */
    public List<Header> headers() {
        return headers;
    }

    /** Returns the CloudEvents mode the record is sent in, if it is sent as a CloudEvent. */
    public Optional<CloudEvent.Mode> findCloudEvents() {
        return Optional.ofNullable(cloudEvents);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof KafkaDelivery that && topic.equals(that.topic) && Objects.equals(key, that.key)
                && headers.equals(that.headers) && cloudEvents == that.cloudEvents;
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, key, headers, cloudEvents);
    }

    @Override
    public String toString() {
        return "KafkaDelivery" + metadataJson;
    }

    private String toJson() {
        JsonProvider json = Json.PROVIDER;
        JsonObjectBuilder object = json.createObjectBuilder().add(TOPIC, topic);
        if (key != null) {
            object.add(KEY, key);
        }
        if (!headers.isEmpty()) {
            JsonArrayBuilder array = json.createArrayBuilder();
            for (Header header : headers) {
                array.add(json.createObjectBuilder().add(NAME, header.name()).add(VALUE, header.value()));
            }
            object.add(HEADERS, array);
        }
        if (cloudEvents != null) {
            object.add(CLOUD_EVENTS, cloudEvents.toString());
        }
        StringWriter text = new StringWriter();
        try (JsonWriter writer = json.createWriter(text)) {
            writer.writeObject(object.build());
        }
        return text.toString();
    }

    /** Returns the string member {@code name}, or {@code null} if it is absent or JSON null and not required. */
    private static String string(JsonObject json, String name, boolean required) {
        JsonValue value = json.get(name);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            if (required) {
                throw new IllegalArgumentException("Kafka delivery metadata lacks the string member \"" + name + "\"");
            }
            return null;
        }
        if (value.getValueType() != JsonValue.ValueType.STRING) {
            throw new IllegalArgumentException("Kafka delivery metadata member \"" + name + "\" must be a string, got: "
                    + value.getValueType());
        }
        return ((JsonString) value).getString();
    }

    private static String requireTopic(String topic) {
        if (topic == null || topic.isEmpty() || topic.length() > MAX_TOPIC_LENGTH) {
            throw new IllegalArgumentException("topic must be 1 to " + MAX_TOPIC_LENGTH + " characters, got: "
                    + (topic == null ? null : topic.length() > 60 ? topic.length() + " characters" : '"' + topic + '"'));
        }
        if (topic.equals(".") || topic.equals("..")) {
            throw new IllegalArgumentException("topic must not be \".\" or \"..\", got: \"" + topic + '"');
        }
        for (int i = 0; i < topic.length(); i++) {
            char c = topic.charAt(i);
            boolean legal = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-';
            if (!legal) {
                throw new IllegalArgumentException("topic may hold only [a-zA-Z0-9._-], got '" + c + "' at index " + i
                        + " in \"" + topic + '"');
            }
        }
        return topic;
    }

    /**
     * One record header: a name and a text value, sent as UTF-8 bytes.
     *
     * @param name  the header name; not {@code null} or blank
     * @param value the header value; not {@code null} (may be empty)
     */
    public record Header(String name, String value) {

        /** @throws IllegalArgumentException if the name is {@code null} or blank, or the value {@code null} */
        public Header {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("header name must not be null or blank, got: "
                        + (name == null ? null : '"' + name + '"'));
            }
            if (value == null) {
                throw new IllegalArgumentException("header value must not be null (header \"" + name + "\")");
            }
        }
    }

    /**
     * Builds a {@link KafkaDelivery}; each method checks its argument at once. Not thread-safe.
     */
    public static final class Builder {

        private final String topic;
        private String key;
        private final List<Header> headers = new ArrayList<>();
        private CloudEvent.Mode cloudEvents;

        private Builder(String topic) {
            this.topic = topic;
        }

        /**
         * Sets the record key, which chooses the partition and so keeps records of one key in
         * order. A repeated call keeps the last value; {@code null} means no key (the default).
         */
        public Builder key(String key) {
            this.key = key;
            return this;
        }

        /**
         * Adds a record header, after those added before. Kafka allows repeated names; all are
         * sent, in order.
         *
         * @param name  the header name; not {@code null} or blank
         * @param value the header value, sent as UTF-8; not {@code null}
         * @throws IllegalArgumentException if the name is {@code null} or blank, the value is
         *                                  {@code null}, or {@value KafkaDelivery#MAX_HEADERS}
         *                                  headers were added already
         */
        public Builder header(String name, String value) {
            Header header = new Header(name, value);
            if (headers.size() >= MAX_HEADERS) {
                throw new IllegalArgumentException("headers must be at most " + MAX_HEADERS + ", got one more: \""
                        + name + '"');
            }
            headers.add(header);
            return this;
        }

        /**
         * Sends the record as a CloudEvents 1.0 event ({@code id} the entry's id, {@code type} the
         * message type, {@code source} from {@code outbox.cloudevents.source}, {@code time} the
         * publish time, the payload as JSON data): in {@code BINARY} mode the attributes travel as
         * {@code ce_*} headers and the value is the payload; in {@code STRUCTURED} mode the value
         * is the JSON envelope, with the header {@code content-type: application/cloudevents+json}.
         * {@code null} (the default) sends the payload as it is.
         */
        public Builder cloudEvents(CloudEvent.Mode mode) {
            this.cloudEvents = mode;
            return this;
        }

        /** Returns the delivery; the builder can go on to build others. */
        public KafkaDelivery build() {
            return new KafkaDelivery(topic, key, headers, cloudEvents, null);
        }
    }

    /** The JSON-P provider, looked up once: {@code jakarta.json.Json} looks it up on every call. */
    private static final class Json {
        static final JsonProvider PROVIDER = JsonProvider.provider();
    }
}
