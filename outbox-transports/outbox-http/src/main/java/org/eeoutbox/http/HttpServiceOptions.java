package org.eeoutbox.http;

import java.net.URI;
import java.util.Optional;
import org.eeoutbox.spi.CloudEvent;

/**
 * How the requests to one HTTP service are dressed, beyond its base URL: signed (Standard
 * Webhooks), and sent as CloudEvents. Immutable; {@link #PLAIN} for neither.
 *
 * @param signer      signs each attempt, or {@code null} for unsigned requests
 * @param cloudEvents the CloudEvents mode, or {@code null} to send the payload as it is
 * @param source      the CloudEvents {@code source}; required with {@code cloudEvents}
 */
public record HttpServiceOptions(WebhookSigner signer, CloudEvent.Mode cloudEvents, URI source) {

    /** Neither signed nor CloudEvents. */
    public static final HttpServiceOptions PLAIN = new HttpServiceOptions(null, null, null);

    /** @throws IllegalArgumentException if {@code cloudEvents} is given without a {@code source} */
    public HttpServiceOptions {
        if (cloudEvents != null && source == null) {
            throw new IllegalArgumentException("a CloudEvents mode needs a source");
        }
    }

    /** Returns the signer, if requests are signed. */
    public Optional<WebhookSigner> findSigner() {
        return Optional.ofNullable(signer);
    }

    /** Returns the CloudEvents mode, if requests are CloudEvents. */
    public Optional<CloudEvent.Mode> findCloudEvents() {
        return Optional.ofNullable(cloudEvents);
    }
}
