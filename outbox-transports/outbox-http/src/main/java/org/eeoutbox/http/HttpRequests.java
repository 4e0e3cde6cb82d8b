package org.eeoutbox.http;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxHeaders;
import org.eeoutbox.TraceContext;
import org.eeoutbox.spi.CloudEvent;

/**
 * Turns the entries of one {@link HttpMessageDeliverer#deliverBatch} call into requests: checks
 * the delivery type, reads and checks the metadata (once per distinct text: a batch's entries
 * usually share one), resolves the service's base URL, checks the final URL and builds the
 * request ("Requests" in the deliverer's class documentation). An entry that cannot be sent gets
 * its outcome instead, logged at {@code WARNING}.
 *
 * <p>One instance per call, confined to the calling thread. {@link #prepare} never throws: a
 * resolver that throws makes the entry retriable.
 */
final class HttpRequests {

    private static final Logger LOG = System.getLogger(HttpMessageDeliverer.class.getName());
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    /** The Standard Webhooks headers of a signed request. */
    static final String WEBHOOK_ID = "webhook-id";
    static final String WEBHOOK_TIMESTAMP = "webhook-timestamp";
    static final String WEBHOOK_SIGNATURE = "webhook-signature";

    private final HttpServiceResolver resolver;
    private final HttpDelivererSettings settings;
    private final Clock clock;
    /** The metadata text last read, and its delivery. */
    private String lastMetadata;
    private HttpDelivery lastDelivery;

    /** @param clock the time of {@code webhook-timestamp} */
    HttpRequests(HttpServiceResolver resolver, HttpDelivererSettings settings, Clock clock) {
        this.resolver = resolver;
        this.settings = settings;
        this.clock = clock;
    }

    /** A request ready to send, or the outcome of an entry that is not sent ({@code failure}). */
    record Prepared(OutboxEntry entry, String service, OutgoingRequest request, DeliveryResult failure) {

        static Prepared failed(OutboxEntry entry, DeliveryResult failure) {
            return new Prepared(entry, null, null, failure);
        }
    }

    /** Returns the request for {@code entry}, or its outcome when it cannot be sent. */
    Prepared prepare(OutboxEntry entry) {
        if (!HttpDelivery.DELIVERY_TYPE.equals(entry.deliveryType())) {
            return rejected(entry, HttpMessages.wrongDeliveryType(entry.deliveryType()));
        }
        HttpDelivery delivery;
        try {
            delivery = delivery(entry.deliveryMetadata());
        } catch (IllegalArgumentException e) {
            return rejected(entry, HttpMessages.invalidMetadata(e.getMessage()));
        }
        String service = delivery.serviceName();
        Optional<URI> baseUrl;
        HttpServiceOptions options;
        try {
            baseUrl = resolver.resolve(service);
            options = Objects.requireNonNullElse(resolver.options(service), HttpServiceOptions.PLAIN);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Outbox entry " + entry.id() + ": the HTTP service resolver threw", e);
            return Prepared.failed(entry, DeliveryResult.retriable(HttpMessages.resolverFailed(service, e)));
        }
        if (baseUrl == null || baseUrl.isEmpty()) {
            return rejected(entry, HttpMessages.unknownService(service));
        }
        String problem = HttpRules.baseUrlProblem(baseUrl.get());
        if (problem != null) {
            return rejected(entry, HttpMessages.badBaseUrl(service, baseUrl.get(), problem));
        }
        URI target = HttpRules.resolve(baseUrl.get(), delivery.path());
        if (target == null) {
            return rejected(entry, HttpMessages.leavesHost(service, baseUrl.get() + delivery.path()));
        }
        try {
            return new Prepared(entry, service, request(entry, delivery, target, options), null);
        } catch (RuntimeException e) {
            return rejected(entry, HttpMessages.requestRejected(service, e));
        }
    }

    /**
     * Builds the request: the delivery's headers, then the content type, the outbox's headers, the
     * trace context, the CloudEvents attributes and the signature, each set over anything the
     * delivery carries.
     */
    private OutgoingRequest request(OutboxEntry entry, HttpDelivery delivery, URI target,
                                    HttpServiceOptions options) {
        String contentType = delivery.contentType();
        String body = entry.payload();
        CloudEvent.Mode mode = options.cloudEvents();
        CloudEvent event = mode == null ? null : CloudEvent.of(entry, options.source(), contentType);
        if (mode == CloudEvent.Mode.STRUCTURED) {
            body = event.structuredJson();
            contentType = CloudEvent.STRUCTURED_CONTENT_TYPE;
        }
        Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        delivery.headers().forEach((name, value) -> {
            if (!OutboxHeaders.isReserved(name)) {
                headers.put(name, value);
            }
        });
        set(headers, "Content-Type", contentType);
        set(headers, OutboxHeaders.MESSAGE_TYPE, headerValue(entry.messageType()));
        set(headers, OutboxHeaders.ATTEMPT, Integer.toString(entry.attempts() + 1));
        set(headers, OutboxHeaders.OUTBOX_ID, entry.id().toString());
        if (entry.orderingKey() != null) {
            set(headers, OutboxHeaders.ORDERING_KEY, headerValue(entry.orderingKey()));
            set(headers, OutboxHeaders.ORDERING_SEQ, String.valueOf(entry.orderingSeq()));
        }
        TraceContext trace = entry.traceContext();
        if (trace != null) {
            // The delivery span's context replaces any the delivery carries: one trace per request.
            set(headers, OutboxHeaders.TRACEPARENT, trace.traceparent());
            headers.remove(OutboxHeaders.TRACESTATE);
            if (trace.tracestate() != null) {
                headers.put(OutboxHeaders.TRACESTATE, trace.tracestate());
            }
        }
        if (mode == CloudEvent.Mode.BINARY) {
            // The HTTP binding percent-encodes space, '"', '%' and all but printable ASCII.
            event.attributes().forEach((name, value) -> set(headers, "ce-" + name,
                    headerValue(value).replace("\"", "%22")));
        }
        if (options.signer() != null) {
            // Signed at each attempt: receivers reject an old timestamp, so a retry is signed anew.
            String id = entry.id().toString();
            long timestamp = clock.instant().getEpochSecond();
            set(headers, WEBHOOK_ID, id);
            set(headers, WEBHOOK_TIMESTAMP, Long.toString(timestamp));
            set(headers, WEBHOOK_SIGNATURE, options.signer().sign(id, timestamp, body));
        }
        return new OutgoingRequest(delivery.method().name(), target, headers, body.getBytes(StandardCharsets.UTF_8),
                settings.requestTimeout());
    }

    /** Sets a header over one of the same name in any case, keeping the new name's case. */
    private static void set(Map<String, String> headers, String name, String value) {
        headers.remove(name);
        headers.put(name, value);
    }

    /** As {@link HttpDelivery#fromMetadataJson}, reusing the last delivery for the same text. */
    private HttpDelivery delivery(String metadataJson) {
        if (!metadataJson.equals(lastMetadata)) {
            lastDelivery = HttpDelivery.fromMetadataJson(metadataJson);
            lastMetadata = metadataJson;
        }
        return lastDelivery;
    }

    /**
     * {@code text} as a header value any HTTP client and server accepts: printable ASCII as it is,
     * every other character (and {@code %}) percent-encoded as UTF-8.
     */
    static String headerValue(String text) {
        StringBuilder value = new StringBuilder(text.length());
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            if (c > 0x20 && c < 0x7F && c != '%') {
                value.append((char) c);
            } else {
                value.append('%').append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
        }
        return value.toString();
    }

    private static Prepared rejected(OutboxEntry entry, String reason) {
        // The processor logs the entry once it is FAILED; this says why the request could not be built.
        LOG.log(Level.DEBUG, "Outbox entry {0} fails permanently: {1}", entry.id(), reason);
        return Prepared.failed(entry, DeliveryResult.permanent(reason));
    }
}
