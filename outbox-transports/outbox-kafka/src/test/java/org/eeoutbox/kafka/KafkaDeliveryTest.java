package org.eeoutbox.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.eeoutbox.spi.CloudEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class KafkaDeliveryTest {

    @Test
    void buildsTopicKeyAndHeadersInOrder() {
        KafkaDelivery delivery = KafkaDelivery.topic("order-events").key("42")
                .header("tenant", "a").header("tenant", "b").header("empty", "").build();

        assertEquals("kafka", delivery.deliveryType());
        assertEquals("order-events", delivery.topic());
        assertEquals(Optional.of("42"), delivery.findKey());
        assertEquals(List.of(new KafkaDelivery.Header("tenant", "a"), new KafkaDelivery.Header("tenant", "b"),
                new KafkaDelivery.Header("empty", "")), delivery.headers());
        assertEquals("{\"topic\":\"order-events\",\"key\":\"42\",\"headers\":[{\"name\":\"tenant\",\"value\":\"a\"},"
                + "{\"name\":\"tenant\",\"value\":\"b\"},{\"name\":\"empty\",\"value\":\"\"}]}", delivery.metadataJson());
    }

    @Test
    void metadataRoundTripsThroughJson() {
        KafkaDelivery delivery = KafkaDelivery.topic("a.b_c-D9").key("clé \"quoted\" \u2603\n")
                .header("x-outbox-id", "user value").header("h", "v\u0000").build();

        assertEquals(delivery, KafkaDelivery.fromMetadataJson(delivery.metadataJson()));
    }

    @Test
    void theCloudEventsModeRoundTripsThroughJsonAndAnUnknownOneIsRefused() {
        KafkaDelivery delivery = KafkaDelivery.topic("orders").cloudEvents(CloudEvent.Mode.STRUCTURED).build();

        assertEquals("{\"topic\":\"orders\",\"cloudevents\":\"structured\"}", delivery.metadataJson());
        assertEquals(delivery, KafkaDelivery.fromMetadataJson(delivery.metadataJson()));
        assertEquals(Optional.of(CloudEvent.Mode.STRUCTURED),
                KafkaDelivery.fromMetadataJson(delivery.metadataJson()).findCloudEvents());
        assertEquals(Optional.empty(), KafkaDelivery.topic("orders").build().findCloudEvents());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KafkaDelivery.fromMetadataJson("{\"topic\":\"orders\",\"cloudevents\":\"xml\"}"));
        assertTrue(e.getMessage().contains("binary or structured, got: xml"), e.getMessage());
    }

    @Test
    void keyAndHeadersAreOptional() {
        KafkaDelivery delivery = KafkaDelivery.topic("t").key("k").key(null).build();

        assertEquals(Optional.empty(), delivery.findKey());
        assertEquals(List.of(), delivery.headers());
        assertEquals("{\"topic\":\"t\"}", delivery.metadataJson());
        assertEquals(delivery, KafkaDelivery.fromMetadataJson("{\"topic\":\"t\",\"key\":null,\"future\":1}"));
    }

    @Test
    void aDeliveryReadBackKeepsTheTextItWasReadFrom() {
        String stored = "{ \"future\": 1, \"topic\": \"t\", \"key\": \"k\" }";

        KafkaDelivery read = KafkaDelivery.fromMetadataJson(stored);

        assertSame(stored, read.metadataJson());
        assertEquals(KafkaDelivery.topic("t").key("k").build(), read);
    }

    @Test
    void topicOfMaximumLengthIsAccepted() {
        String topic = "t".repeat(KafkaDelivery.MAX_TOPIC_LENGTH);

        assertEquals(topic, KafkaDelivery.topic(topic).build().topic());
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {".", "..", "with space", "slash/", "colon:", "ümlaut", "star*"})
    void illegalTopicIsRejectedNamingTheArgument(String topic) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KafkaDelivery.topic(topic));

        assertTrue(e.getMessage().startsWith("topic "), e.getMessage());
    }

    @Test
    void overlongTopicIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KafkaDelivery.topic("t".repeat(KafkaDelivery.MAX_TOPIC_LENGTH + 1)));

        assertEquals("topic must be 1 to 249 characters, got: 250 characters", e.getMessage());
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {" ", "\t\n"})
    void blankHeaderNameIsRejected(String name) {
        KafkaDelivery.Builder builder = KafkaDelivery.topic("t");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> builder.header(name, "v"));

        assertTrue(e.getMessage().startsWith("header name must not be null or blank"), e.getMessage());
    }

    @Test
    void nullHeaderValueIsRejected() {
        KafkaDelivery.Builder builder = KafkaDelivery.topic("t");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> builder.header("h", null));

        assertEquals("header value must not be null (header \"h\")", e.getMessage());
    }

    @Test
    void atMostOneHundredHeaders() {
        KafkaDelivery.Builder builder = KafkaDelivery.topic("t");
        for (int i = 0; i < KafkaDelivery.MAX_HEADERS; i++) {
            builder.header("h" + i, "v");
        }
        assertEquals(100, builder.build().headers().size());

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> builder.header("h100", "v"));

        assertEquals("headers must be at most 100, got one more: \"h100\"", e.getMessage());
    }

    @Test
    void builtDeliveryIsImmutable() {
        KafkaDelivery.Builder builder = KafkaDelivery.topic("t").header("a", "1");
        KafkaDelivery first = builder.build();
        builder.header("b", "2");

        assertEquals(1, first.headers().size());
        assertThrows(UnsupportedOperationException.class, () -> first.headers().add(new KafkaDelivery.Header("c", "3")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "not json", "[]", "{}", "{\"topic\":1}", "{\"topic\":\"bad topic\"}",
            "{\"topic\":\"t\",\"key\":5}", "{\"topic\":\"t\",\"headers\":{}}", "{\"topic\":\"t\",\"headers\":[1]}",
            "{\"topic\":\"t\",\"headers\":[{\"name\":\" \",\"value\":\"v\"}]}",
            "{\"topic\":\"t\",\"headers\":[{\"name\":\"n\"}]}"})
    void unreadableMetadataIsRejected(String json) {
        assertThrows(IllegalArgumentException.class, () -> KafkaDelivery.fromMetadataJson(json));
    }

    @Test
    void nullMetadataIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> KafkaDelivery.fromMetadataJson(null));
    }
}
