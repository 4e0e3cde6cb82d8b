package org.eeoutbox.demo;

import java.util.function.Consumer;
import org.eeoutbox.testkit.HttpReceiver;
import org.eeoutbox.testkit.ReceivedRequest;

/**
 * The demo's webhook receiver: the testkit's {@link HttpReceiver} on a loopback port, answering
 * {@code POST PATH} with {@code 204} after recording it in a {@link Tally}; any other request gets
 * {@code 404}. {@link HttpReceiver#down(boolean)} refuses deliveries with {@code 503} (not
 * recorded), {@link HttpReceiver#stop()} and {@link HttpReceiver#start()} take it off the network
 * and back on the same port. It keeps no requests of its own (the tally does).
 */
public final class Webhooks {

    private Webhooks() {
    }

    /** Starts a webhook receiver for {@code path} on a free port, recording accepted deliveries in {@code tally}. */
    public static HttpReceiver receiver(String path, Tally tally) {
        return receiver(path, request -> tally.record(request.outboxId(), request.body(), request.receivedAt()));
    }

    /**
     * Starts a webhook receiver for {@code path} on a free port, handing each accepted delivery to
     * {@code onAccepted} before answering.
     */
    public static HttpReceiver receiver(String path, Consumer<ReceivedRequest> onAccepted) {
        return HttpReceiver.builder()
                .name("webhook-receiver")
                .threads(16)
                .backlog(128)
                .recording(false)
                .respondWith(onlyAt(path, HttpReceiver.Responder.always(204)))
                // Recorded before answering, as a consumer that processes, then acknowledges.
                .onAccepted(onAccepted)
                .start();
    }

    /** Answers {@code POST path} as {@code responder} decides, and any other request {@code 404}. */
    public static HttpReceiver.Responder onlyAt(String path, HttpReceiver.Responder responder) {
        return request -> "POST".equals(request.method()) && path.equals(request.path())
                ? responder.status(request) : 404;
    }
}
