package org.eeoutbox.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The builder: defaults, metadata, and rejection of hostile input. */
class HttpDeliveryTest {

    @Test
    void buildHasDefaults() {
        HttpDelivery delivery = HttpDelivery.to("billing").build();

        assertEquals("http", delivery.deliveryType());
        assertEquals("billing", delivery.serviceName());
        assertEquals("", delivery.path());
        assertEquals(HttpMethod.POST, delivery.method());
        assertEquals("application/json", delivery.contentType());
        assertEquals(Map.of(), delivery.headers());
    }

    @Test
    void metadataJsonHoldsEveryFieldAndReadsBackEqual() {
        HttpDelivery delivery = HttpDelivery.to("billing").path("/webhooks/orders?v=2").method(HttpMethod.PATCH)
                .header("X-Tenant", "acme").header("X-Trace", "a\tb").contentType("application/cloudevents+json")
                .build();

        JsonObject json = Json.createReader(new StringReader(delivery.metadataJson())).readObject();

        assertEquals("billing", json.getString("service"));
        assertEquals("/webhooks/orders?v=2", json.getString("path"));
        assertEquals("PATCH", json.getString("method"));
        assertEquals("application/cloudevents+json", json.getString("contentType"));
        assertEquals("acme", json.getJsonObject("headers").getString("X-Tenant"));
        assertEquals("a\tb", json.getJsonObject("headers").getString("X-Trace"));
        assertEquals(delivery, HttpDelivery.fromMetadataJson(delivery.metadataJson()));
    }

    @Test
    void aDeliveryReadBackKeepsTheTextItWasReadFrom() {
        String stored = "{\"future\":1,\"service\":\"billing\",\"path\":\"/hooks\",\"method\":\"PUT\","
                + "\"contentType\":\"text/plain\"}";

        HttpDelivery read = HttpDelivery.fromMetadataJson(stored);

        assertSame(stored, read.metadataJson());
        assertEquals(HttpDelivery.to("billing").path("/hooks").method(HttpMethod.PUT).contentType("text/plain").build(),
                read);
    }

    @Test
    void headerWithSameNameInAnyCaseReplacesTheEarlierOne() {
        HttpDelivery delivery = HttpDelivery.to("billing").header("X-Tenant", "a").header("X-Other", "o")
                .header("x-tenant", "b").build();

        assertEquals(Map.of("x-tenant", "b", "X-Other", "o"), delivery.headers());
        assertEquals(List.of("x-tenant", "X-Other"), List.copyOf(delivery.headers().keySet()));
    }

    @Test
    void toStringLeavesOutHeaderValues() {
        String text = HttpDelivery.to("billing").header("Authorization", "Bearer secret").build().toString();

        assertTrue(text.contains("Authorization"), text);
        assertFalse(text.contains("secret"), text);
    }

    @Test
    void headersAreUnmodifiable() {
        HttpDelivery delivery = HttpDelivery.to("billing").header("X-A", "1").build();
        assertThrows(UnsupportedOperationException.class, () -> delivery.headers().put("Host", "evil"));
    }

    @Test
    void hundredHeadersAreAllowedAndTheHundredAndFirstIsNot() {
        HttpDelivery.Builder builder = HttpDelivery.to("billing");
        for (int i = 1; i <= HttpDelivery.MAX_HEADERS; i++) {
            builder.header("X-H" + i, "v");
        }
        builder.header("x-h1", "replaced is fine");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> builder.header("X-H101", "v"));
        assertEquals("at most 100 headers are allowed: header \"X-H101\" would be number 101", e.getMessage());
        assertEquals(100, builder.build().headers().size());
    }

    // ---- Service name ----

    @ParameterizedTest
    @ValueSource(strings = {"", "bad name", "../etc", "a/b", "-leading-dash", "évian", "a\r\nb", "a:b"})
    void toRejectsBadServiceName(String name) {
        assertMessageNames("serviceName", () -> HttpDelivery.to(name));
    }

    @Test
    void toRejectsNullAndOverlongServiceName() {
        assertMessageNames("serviceName must not be null", () -> HttpDelivery.to(null));
        assertMessageNames("serviceName", () -> HttpDelivery.to("a".repeat(129)));
        assertEquals("a".repeat(128), HttpDelivery.to("a".repeat(128)).build().serviceName());
    }

    // ---- Path ----

    @Test
    void pathRejectsSpaces() {
        assertMessageNames("path must not contain spaces", () -> HttpDelivery.to("s").path("/a b"));
    }

    @Test
    void pathRejectsCrAndLf() {
        assertMessageNames("path must not contain CR or LF", () -> HttpDelivery.to("s").path("/a\r\nHost: evil"));
        assertMessageNames("path must not contain CR or LF", () -> HttpDelivery.to("s").path("/a\nb"));
        assertMessageNames("path must not contain CR or LF", () -> HttpDelivery.to("s").path("/a\rb"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/a\u0000b", "/a\tb", "/a\u007fb", "/a\u0085b", "/\u001b[31m"})
    void pathRejectsControlCharacters(String path) {
        assertMessageNames("path must not contain control characters", () -> HttpDelivery.to("s").path(path));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://evil.example/x", "https://evil.example", "/redirect?to=http://evil.example",
            "/a/file://x"})
    void pathRejectsSchemes(String path) {
        assertMessageNames("path must not contain a scheme", () -> HttpDelivery.to("s").path(path));
    }

    @ParameterizedTest
    @ValueSource(strings = {"webhooks", "evil.example/x", "?q=1", "mailto:x@evil.example"})
    void pathMustStartWithSlash(String path) {
        assertMessageNames("path must start with '/'", () -> HttpDelivery.to("s").path(path));
    }

    @Test
    void pathRejectsEmptyAndNull() {
        assertMessageNames("path must start with '/'", () -> HttpDelivery.to("s").path(""));
        assertMessageNames("path must not be null", () -> HttpDelivery.to("s").path(null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"//evil.example/x", "//", "///x"})
    void pathMustNotStartWithDoubleSlash(String path) {
        assertMessageNames("path must not start with '//'", () -> HttpDelivery.to("s").path(path));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/..", "/a/../b", "/a/..", "/./a", "/a/%2e%2e/b", "/a/%2E./b", "/a/..%2fb", "/a/..%5Cb",
            "/a/.%2e?x=1"})
    void pathRejectsDotSegments(String path) {
        assertMessageNames("path must not contain '.' or '..' segments", () -> HttpDelivery.to("s").path(path));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/a#fragment", "/a\\b", "/é", "/a<b>", "/a\"b", "/a{b}", "/a|b", "/a^b", "/a`b"})
    void pathRejectsCharactersOutsideUriPaths(String path) {
        assertMessageNames("path must hold only URI path and query characters", () -> HttpDelivery.to("s").path(path));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/a%", "/a%2", "/a%zz"})
    void pathRejectsBrokenPercentEscapes(String path) {
        assertMessageNames("path has a '%' not followed by two hex digits", () -> HttpDelivery.to("s").path(path));
    }

    @Test
    void pathRejectsOverlongPath() {
        assertMessageNames("path must be at most 2048 characters", () -> HttpDelivery.to("s").path("/" + "a".repeat(2048)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/webhooks/orders", "/a/b.json", "/a/..b/c", "/a/.well-known/x", "/x?a=1&b=%20c",
            "/users/@me:1;v=2", "/~user/(x)!*'+,$="})
    void pathAcceptsOrdinaryPaths(String path) {
        assertEquals(path, HttpDelivery.to("s").path(path).build().path());
    }

    // ---- Headers ----

    @ParameterizedTest
    @ValueSource(strings = {"Host", "host", "Content-Length", "Connection", "Transfer-Encoding", "Upgrade",
            "Keep-Alive", "Proxy-Authorization", "Proxy-Connection", "proxy-anything", "TE", "Trailer", "Expect",
            "HTTP2-Settings"})
    void headerRejectsRestrictedNames(String name) {
        assertMessageNames("header \"" + name + "\" is not allowed", () -> HttpDelivery.to("s").header(name, "x"));
    }

    @Test
    void headerRejectsContentTypeInFavourOfContentType() {
        assertMessageNames("header \"Content-Type\" is not allowed: set the content type with contentType(...)",
                () -> HttpDelivery.to("s").header("Content-Type", "text/plain"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"X Bad", "X:Bad", "X-Bad:", "X\r\nInjected", "Ünïcode", "(comment)", "X/Y"})
    void headerRejectsNamesThatAreNotTokens(String name) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HttpDelivery.to("s").header(name, "v"));
        assertTrue(e.getMessage().startsWith("header name \"" + HttpMessages.quote(name).substring(1)),
                e.getMessage());
        assertTrue(e.getMessage().contains("is not a valid HTTP token"), e.getMessage());
        assertFalse(e.getMessage().contains("\r") || e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void headerRejectsEmptyNullAndOverlongNames() {
        assertMessageNames("header name must not be empty", () -> HttpDelivery.to("s").header("", "v"));
        assertMessageNames("header name must not be null", () -> HttpDelivery.to("s").header(null, "v"));
        assertMessageNames("header name must be at most 256 characters",
                () -> HttpDelivery.to("s").header("X".repeat(257), "v"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\rb", "a\nb", "a\r\nX-Injected: yes", "a\u0000b"})
    void headerRejectsValuesWithCrLfOrNul(String value) {
        assertMessageNames("value of header \"X-Test\" must not contain CR, LF or NUL",
                () -> HttpDelivery.to("s").header("X-Test", value));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\u0001b", "\u001b[31m", "a\u007f"})
    void headerRejectsValuesWithOtherControlCharacters(String value) {
        assertMessageNames("value of header \"X-Test\" must not contain control characters",
                () -> HttpDelivery.to("s").header("X-Test", value));
    }

    @Test
    void headerRejectsNullNonLatin1AndOverlongValues() {
        assertMessageNames("value of header \"X-Test\" must not be null", () -> HttpDelivery.to("s").header("X-Test", null));
        assertMessageNames("value of header \"X-Test\" must be ISO-8859-1 text",
                () -> HttpDelivery.to("s").header("X-Test", "snow \u2603"));
        assertMessageNames("value of header \"X-Test\" must be at most 8192 characters",
                () -> HttpDelivery.to("s").header("X-Test", "v".repeat(8193)));
    }

    @Test
    void headerAcceptsTabsEmptyValuesAndLatin1() {
        Map<String, String> headers = HttpDelivery.to("s").header("X-A", "a\tb").header("X-B", "")
                .header("X-C", "café").header("x-outbox-id", "ignored later").build().headers();
        assertEquals(4, headers.size());
    }

    // ---- Method and content type ----

    @Test
    void methodRejectsNull() {
        assertMessageNames("method must not be null", () -> HttpDelivery.to("s").method(null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "json", "/json", "application/", "application json", "application/json\r\nX-Injected: yes",
            "text/plain; charset=\u0000", " application/json"})
    void contentTypeRejectsWhatIsNotAMediaType(String contentType) {
        assertMessageNames("contentType must be a media type", () -> HttpDelivery.to("s").contentType(contentType));
    }

    @Test
    void contentTypeRejectsNull() {
        assertMessageNames("contentType must not be null", () -> HttpDelivery.to("s").contentType(null));
    }

    private static void assertMessageNames(String expectedStart, Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call::run);
        assertTrue(e.getMessage().startsWith(expectedStart), e.getMessage());
    }

    /** A call expected to throw. */
    @FunctionalInterface
    private interface Executable {
        void run();
    }
}
