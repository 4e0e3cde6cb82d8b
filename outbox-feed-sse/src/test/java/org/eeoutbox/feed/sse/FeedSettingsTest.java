package org.eeoutbox.feed.sse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eeoutbox.config.Configuration;
import org.junit.jupiter.api.Test;

/** The feed's properties: defaults, checks naming the property, what the transport tells the runtime. */
class FeedSettingsTest {

    @Test
    void defaultsKeepSevenDaysAndLeaveTheResourceOff() {
        Configuration configuration = Configuration.of(Map.of());

        FeedSettings settings = FeedSettings.read(configuration);

        assertEquals(List.of(), configuration.problems());
        assertEquals(new FeedSettings(Duration.ofDays(7), false, "feeds", Duration.ofMillis(500), 256), settings);
    }

    @Test
    void valuesAreReadAndThePathStripped() {
        FeedSettings settings = FeedSettings.read(Configuration.of(Map.of("outbox.feed.retention", "2d",
                "outbox.feed.sse.enabled", "true", "outbox.feed.sse.path", "/api/events/",
                "outbox.feed.sse.poll-interval", "100ms", "outbox.feed.sse.client-buffer", "10")));

        assertEquals(new FeedSettings(Duration.ofDays(2), true, "api/events", Duration.ofMillis(100), 10), settings);
    }

    @Test
    void invalidValuesAreProblemsNamingTheProperty() {
        Configuration configuration = Configuration.of(Map.of("outbox.feed.sse.path", "a b",
                "outbox.feed.sse.client-buffer", "0", "outbox.feed.sse.enabled", "true"));

        FeedSettings settings = FeedSettings.read(configuration);

        assertEquals(FeedSettings.DISABLED, settings);
        assertEquals(2, configuration.problems().size(), configuration.problems().toString());
        assertTrue(configuration.problems().stream().anyMatch(p -> p.startsWith("outbox.feed.sse.path=a b")),
                configuration.problems().toString());
        assertTrue(configuration.problems().stream().anyMatch(p -> p.contains("outbox.feed.sse.client-buffer")),
                configuration.problems().toString());
    }

    @Test
    void theTransportIsCompleteAtPublishWithItsOwnRetentionAndNoDeliverer() {
        FeedTransportProvider provider = new FeedTransportProvider();

        assertEquals("feed", provider.deliveryType());
        assertTrue(provider.completeAtPublish());
        assertEquals(Optional.of(Duration.ofHours(36)),
                provider.deliveredRetention(Configuration.of(Map.of("outbox.feed.retention", "36h"))));
        assertFalse(provider.create(null).isPresent());
        assertEquals(FeedSettings.PROPERTIES, provider.properties());
    }
}
