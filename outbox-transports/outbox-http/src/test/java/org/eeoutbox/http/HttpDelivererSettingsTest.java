package org.eeoutbox.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class HttpDelivererSettingsTest {

    @Test
    void defaultsAreFiveSecondsTenSecondsAnd128() {
        assertEquals(Duration.ofSeconds(5), HttpDelivererSettings.DEFAULT.connectTimeout());
        assertEquals(Duration.ofSeconds(10), HttpDelivererSettings.DEFAULT.requestTimeout());
        assertEquals(256, HttpDelivererSettings.DEFAULT.maxInFlight());
        assertEquals(Duration.ofSeconds(15), HttpDelivererSettings.DEFAULT.attemptTimeout());
    }

    @Test
    void withersChangeOneComponent() {
        HttpDelivererSettings settings = HttpDelivererSettings.DEFAULT.withConnectTimeout(Duration.ofSeconds(1))
                .withRequestTimeout(Duration.ofSeconds(2)).withMaxInFlight(4);
        assertEquals(new HttpDelivererSettings(Duration.ofSeconds(1), Duration.ofSeconds(2), 4), settings);
    }

    @Test
    void constructorRejectsValuesOutOfRangeNamingThem() {
        assertMessage("connectTimeout must be in [PT0.001S, PT5M], got: PT0S",
                () -> HttpDelivererSettings.DEFAULT.withConnectTimeout(Duration.ZERO));
        assertMessage("connectTimeout must be in [PT0.001S, PT5M], got: PT5M0.001S",
                () -> HttpDelivererSettings.DEFAULT.withConnectTimeout(Duration.ofMinutes(5).plusMillis(1)));
        assertMessage("requestTimeout must be in [PT0.001S, PT10M], got: PT-1S",
                () -> HttpDelivererSettings.DEFAULT.withRequestTimeout(Duration.ofSeconds(-1)));
        assertMessage("requestTimeout must not be null", () -> HttpDelivererSettings.DEFAULT.withRequestTimeout(null));
        assertMessage("maxInFlight must be in [1, 1024], got: 0", () -> HttpDelivererSettings.DEFAULT.withMaxInFlight(0));
        assertMessage("maxInFlight must be in [1, 1024], got: 1025",
                () -> HttpDelivererSettings.DEFAULT.withMaxInFlight(1025));
    }

    private static void assertMessage(String expected, Runnable call) {
        assertEquals(expected, assertThrows(IllegalArgumentException.class, call::run).getMessage());
    }
}
