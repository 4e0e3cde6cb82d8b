package org.eeoutbox.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The defaults the deliverer adds to a producer configuration it builds its producer from. */
class KafkaProducerDefaultsTest {

    @Test
    void timeoutsAreDerivedFromTheSendTimeout() {
        Map<String, Object> config = KafkaProducerDefaults.config(Map.of("bootstrap.servers", "b:9092"),
                Duration.ofSeconds(30));
        assertEquals(Map.of("bootstrap.servers", "b:9092", "acks", "all", "enable.idempotence", true,
                "request.timeout.ms", 10_000, "delivery.timeout.ms", 25_000, "max.block.ms", 5_000L), config);
    }

    @Test
    void theApplicationsSettingsWin() {
        Map<String, Object> config = KafkaProducerDefaults.config(Map.of("acks", "1", "max.block.ms", "1000",
                "enable.idempotence", "false"), Duration.ofSeconds(30));
        assertEquals("1", config.get("acks"));
        assertEquals("1000", config.get("max.block.ms"));
        assertEquals("false", config.get("enable.idempotence"));
        assertEquals(10_000, config.get("request.timeout.ms"));
    }

    @Test
    void serializerSettingsAreDropped() {
        Map<String, Object> config = KafkaProducerDefaults.config(Map.of(
                "key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer",
                "value.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer"),
                Duration.ofSeconds(1));
        assertFalse(config.containsKey("key.serializer"));
        assertFalse(config.containsKey("value.serializer"));
        assertEquals(333, config.get("request.timeout.ms"));
        assertEquals(833, config.get("delivery.timeout.ms"));
        assertEquals(166L, config.get("max.block.ms"));
    }
}
