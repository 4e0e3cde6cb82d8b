package org.eeoutbox.http;

import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import javax.net.ssl.SSLException;
import org.eeoutbox.DeliveryResult;

/**
 * How {@link HttpMessageDeliverer} classifies one attempt (the table in its class
 * documentation): a response by its status, a failed request by the exceptions in its cause
 * chain. Pure functions of their arguments; nothing is logged.
 *
 * <p>Stateless and thread-safe; no method throws for non-null arguments.
 */
final class HttpOutcomes {

    /** How deep {@link #find} follows a cause chain. */
    private static final int MAX_CAUSE_DEPTH = 32;

    private HttpOutcomes() {
    }

    /**
     * The outcome of a response: 2xx delivered; 408, 429 and 5xx retriable, with the
     * {@code Retry-After} of a 429 or 503 (read against {@code clock}) as {@code notBefore};
     * anything else, 3xx included, permanent. The reason names the status, the service, a
     * redirect's {@code Location} and the body prefix.
     */
    static DeliveryResult outcome(String service, HttpReply reply, Clock clock) {
        int status = reply.status();
        if (status >= 200 && status <= 299) {
            return DeliveryResult.delivered();
        }
        String location = status >= 300 && status <= 399 ? reply.location() : null;
        BodyPrefix body = reply.body();
        String reason = HttpMessages.status(status, service, location, text(body.bytes()), body.truncated());
        if (status == 408 || status == 429 || (status >= 500 && status <= 599)) {
            Instant notBefore = status == 429 || status == 503
                    ? RetryAfter.parse(reply.retryAfter(), clock.instant())
                    : null;
            return DeliveryResult.retriable(reason, notBefore);
        }
        return DeliveryResult.permanent(reason);
    }

    /**
     * The outcome of a request that failed with {@code error}, by the first match in its cause
     * chain: an {@link SSLException} permanent; a connect timeout, a request timeout, a
     * {@link ConnectException} or another {@link IOException} retriable; an
     * {@link IllegalArgumentException} (the client rejected the request) permanent. Returns
     * {@code null} for any other failure, which the caller logs and reports retriable
     * ({@link HttpMessages#unexpectedFailure}).
     */
    static DeliveryResult failure(String service, Throwable error, HttpDelivererSettings settings) {
        SSLException tls = find(error, SSLException.class);
        if (tls != null) {
            return DeliveryResult.permanent(HttpMessages.tlsFailure(service, tls));
        }
        if (find(error, HttpConnectTimeoutException.class) != null) {
            return DeliveryResult.retriable(HttpMessages.connectTimeout(service, settings.connectTimeout()));
        }
        if (find(error, HttpTimeoutException.class) != null) {
            return DeliveryResult.retriable(HttpMessages.requestTimeout(service, settings.requestTimeout()));
        }
        ConnectException refused = find(error, ConnectException.class);
        if (refused != null) {
            return DeliveryResult.retriable(HttpMessages.connectFailed(service, refused));
        }
        IOException io = find(error, IOException.class);
        if (io != null) {
            return DeliveryResult.retriable(HttpMessages.ioFailure(service, io));
        }
        IllegalArgumentException rejected = find(error, IllegalArgumentException.class);
        if (rejected != null) {
            return DeliveryResult.permanent(HttpMessages.requestRejected(service, rejected));
        }
        return null;
    }

    /**
     * Returns the first throwable of the given type in the cause chain (suppressed ones aside),
     * following at most 32 causes and none twice; {@code null} if there is none.
     */
    static <T extends Throwable> T find(Throwable error, Class<T> type) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Throwable current = error;
        for (int depth = 0; current != null && depth < MAX_CAUSE_DEPTH && seen.add(current); depth++) {
            if (type.isInstance(current)) {
                return type.cast(current);
            }
            current = current.getCause();
        }
        return null;
    }

    /**
     * Decodes a body prefix as UTF-8 (a sequence cut at the end or malformed becomes U+FFFD)
     * and replaces control characters other than tab and line breaks, which a database text
     * column (NUL) or a log line should not receive; strips surrounding white space.
     */
    static String text(byte[] bytes) {
        String decoded;
        try {
            decoded = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            decoded = new String(bytes, StandardCharsets.UTF_8);
        }
        StringBuilder out = new StringBuilder(decoded.length());
        for (int i = 0; i < decoded.length(); i++) {
            char c = decoded.charAt(i);
            boolean control = (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f;
            out.append(control ? '\uFFFD' : c);
        }
        return out.toString().strip();
    }
}
