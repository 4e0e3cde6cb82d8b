package org.eeoutbox.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import javax.net.ssl.SSLHandshakeException;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.eeoutbox.DeliveryResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The classification table of {@link HttpMessageDeliverer}, on plain inputs, without a server. */
class HttpOutcomesTest {

    private static final Instant NOW = Instant.parse("2030-01-02T03:04:05Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final BodyPrefix NO_BODY = new BodyPrefix(new byte[0], false);
    private static final HttpDelivererSettings SETTINGS =
            new HttpDelivererSettings(Duration.ofSeconds(2), Duration.ofSeconds(7), 4);

    static Stream<Arguments> statuses() {
        return Stream.of(
                Arguments.of(200, DeliveryResult.Delivered.class),
                Arguments.of(204, DeliveryResult.Delivered.class),
                Arguments.of(299, DeliveryResult.Delivered.class),
                Arguments.of(408, DeliveryResult.RetriableFailure.class),
                Arguments.of(429, DeliveryResult.RetriableFailure.class),
                Arguments.of(500, DeliveryResult.RetriableFailure.class),
                Arguments.of(503, DeliveryResult.RetriableFailure.class),
                Arguments.of(599, DeliveryResult.RetriableFailure.class),
                Arguments.of(100, DeliveryResult.PermanentFailure.class),
                Arguments.of(301, DeliveryResult.PermanentFailure.class),
                Arguments.of(304, DeliveryResult.PermanentFailure.class),
                Arguments.of(400, DeliveryResult.PermanentFailure.class),
                Arguments.of(404, DeliveryResult.PermanentFailure.class),
                Arguments.of(409, DeliveryResult.PermanentFailure.class),
                Arguments.of(600, DeliveryResult.PermanentFailure.class));
    }

    @ParameterizedTest(name = "HTTP {0} -> {1}")
    @MethodSource("statuses")
    void statusDecidesTheOutcome(int status, Class<? extends DeliveryResult> expected) {
        assertInstanceOf(expected, HttpOutcomes.outcome("billing", new HttpReply(status, null, null, NO_BODY), CLOCK));
    }

    @Test
    void retryAfterOn429And503SetsNotBefore() {
        for (int status : new int[] {429, 503}) {
            DeliveryResult.RetriableFailure failure = assertInstanceOf(DeliveryResult.RetriableFailure.class,
                    HttpOutcomes.outcome("billing", new HttpReply(status, null, "120", NO_BODY), CLOCK));
            assertEquals(NOW.plusSeconds(120), failure.notBefore());
        }
    }

    @Test
    void retryAfterOnOtherStatusesIsIgnored() {
        for (int status : new int[] {408, 500, 502}) {
            DeliveryResult.RetriableFailure failure = assertInstanceOf(DeliveryResult.RetriableFailure.class,
                    HttpOutcomes.outcome("billing", new HttpReply(status, null, "120", NO_BODY), CLOCK));
            assertNull(failure.notBefore());
        }
    }

    @Test
    void reasonNamesStatusServiceAndBody() {
        BodyPrefix body = new BodyPrefix(
                " out of stock\n".getBytes(StandardCharsets.UTF_8), true);
        DeliveryResult.PermanentFailure failure = assertInstanceOf(DeliveryResult.PermanentFailure.class,
                HttpOutcomes.outcome("billing", new HttpReply(422, null, null, body), CLOCK));
        assertEquals("HTTP 422 from service 'billing': out of stock [truncated]", failure.reason());
    }

    @Test
    void redirectReasonNamesTheLocationNotFollowed() {
        DeliveryResult.PermanentFailure failure = assertInstanceOf(DeliveryResult.PermanentFailure.class,
                HttpOutcomes.outcome("billing", new HttpReply(302, "https://elsewhere/x", null, NO_BODY), CLOCK));
        assertEquals("HTTP 302 from service 'billing' (redirect to \"https://elsewhere/x\" not followed)",
                failure.reason());
    }

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of(new SSLHandshakeException("untrusted"), DeliveryResult.PermanentFailure.class,
                        "TLS failure with HTTP service 'billing'"),
                Arguments.of(new IOException("wrapped", new SSLHandshakeException("untrusted")),
                        DeliveryResult.PermanentFailure.class, "TLS failure with HTTP service 'billing'"),
                Arguments.of(new HttpConnectTimeoutException("slow"), DeliveryResult.RetriableFailure.class,
                        "could not connect to HTTP service 'billing' within the connect timeout of PT2S"),
                Arguments.of(new HttpTimeoutException("slow"), DeliveryResult.RetriableFailure.class,
                        "no response from HTTP service 'billing' within the request timeout of PT7S"),
                Arguments.of(new CompletionException(new ConnectException("refused")),
                        DeliveryResult.RetriableFailure.class, "could not connect to HTTP service 'billing'"),
                Arguments.of(new IOException("reset"), DeliveryResult.RetriableFailure.class,
                        "I/O error with HTTP service 'billing'"),
                Arguments.of(new UncheckedIOException(new IOException("reset")), DeliveryResult.RetriableFailure.class,
                        "I/O error with HTTP service 'billing'"),
                Arguments.of(new IllegalArgumentException("bad header"), DeliveryResult.PermanentFailure.class,
                        "request to HTTP service 'billing' could not be built"),
                // Apache HttpClient's failures, as its sender translates them.
                Arguments.of(ApacheHttpSender.translate(new ConnectTimeoutException("slow")),
                        DeliveryResult.RetriableFailure.class,
                        "could not connect to HTTP service 'billing' within the connect timeout of PT2S"),
                Arguments.of(ApacheHttpSender.translate(new SocketTimeoutException("7000 MILLISECONDS")),
                        DeliveryResult.RetriableFailure.class,
                        "no response from HTTP service 'billing' within the request timeout of PT7S"),
                Arguments.of(ApacheHttpSender.translate(new IOException("wrapped", new SSLHandshakeException("x"))),
                        DeliveryResult.PermanentFailure.class, "TLS failure with HTTP service 'billing'"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("failures")
    void failureDecidesByTheCauseChain(Throwable error, Class<? extends DeliveryResult> expected, String reasonStart) {
        DeliveryResult result = HttpOutcomes.failure("billing", error, SETTINGS);
        assertInstanceOf(expected, result);
        String reason = result instanceof DeliveryResult.PermanentFailure p ? p.reason()
                : ((DeliveryResult.RetriableFailure) result).reason();
        assertEquals(reasonStart, reason.substring(0, Math.min(reason.length(), reasonStart.length())), reason);
    }

    @Test
    void unknownFailuresAreLeftToTheCaller() {
        assertNull(HttpOutcomes.failure("billing", new IllegalStateException("bug"), SETTINGS));
        assertNull(HttpOutcomes.failure("billing", new NullPointerException(), SETTINGS));
    }

    @Test
    void findStopsAtACycleInTheCauseChain() {
        Exception a = new Exception("a");
        Exception b = new Exception("b", a);
        a.initCause(b);
        assertNull(HttpOutcomes.find(a, IOException.class));
        IOException io = new IOException("io");
        assertSame(io, HttpOutcomes.find(new RuntimeException(new RuntimeException(io)), IOException.class));
    }

    @Test
    void textReplacesControlCharactersAndBrokenUtf8() {
        byte[] bytes = {'o', 'k', 0, '\t', 'x', (byte) 0x7f, '\n', (byte) 0xe2, (byte) 0x82};
        assertEquals("ok\uFFFD\tx\uFFFD\n\uFFFD", HttpOutcomes.text(bytes));
    }

    @Test
    void textStripsSurroundingWhiteSpace() {
        assertEquals("a b", HttpOutcomes.text("  a b \r\n".getBytes(StandardCharsets.UTF_8)));
        assertEquals("", HttpOutcomes.text(new byte[0]));
    }
}
