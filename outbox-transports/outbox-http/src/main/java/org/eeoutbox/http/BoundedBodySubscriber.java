package org.eeoutbox.http;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A JDK {@code HttpClient} body subscriber that keeps at most {@code limit} bytes of a response
 * body. As soon as more arrives it cancels its subscription, which makes the client close the
 * connection instead of reading on, and completes with the prefix: a huge body is never read
 * whole, let alone buffered. Bodies that fit end normally, so their connection stays reusable.
 *
 * <p>{@link #finishEarly()} ends it from another thread, with what has arrived so far, for a
 * response whose body stalls past the attempt's deadline. Thread-safe.
 */
final class BoundedBodySubscriber implements HttpResponse.BodySubscriber<BodyPrefix> {

    private final BodyPrefix.Collector collector;
    private final CompletableFuture<BodyPrefix> body = new CompletableFuture<>();
    private Flow.Subscription subscription;

    BoundedBodySubscriber(int limit) {
        this.collector = new BodyPrefix.Collector(limit);
    }

    @Override
    public CompletionStage<BodyPrefix> getBody() {
        return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription newSubscription) {
        boolean cancel;
        synchronized (this) {
            cancel = subscription != null || collector.isFinished();
            if (!cancel) {
                subscription = newSubscription;
            }
        }
        if (cancel) {
            newSubscription.cancel();
        } else {
            newSubscription.request(1);
        }
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        if (collector.isFinished()) {
            return;
        }
        for (ByteBuffer item : items) {
            BodyPrefix full = collector.append(item);
            if (full != null) {
                subscription.cancel();
                body.complete(full);
                return;
            }
        }
        subscription.request(1);
    }

    @Override
    public void onError(Throwable error) {
        collector.cut();
        body.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        BodyPrefix prefix = collector.end();
        if (prefix != null) {
            body.complete(prefix);
        }
    }

    /**
     * Stops reading, completes with the bytes received so far (marked truncated) unless the
     * body had already ended, and returns the bytes received.
     */
    BodyPrefix finishEarly() {
        if (collector.isFinished()) {
            return collector.cut();
        }
        BodyPrefix prefix = collector.cut();
        Flow.Subscription toCancel;
        synchronized (this) {
            toCancel = subscription;
        }
        if (toCancel != null) {
            toCancel.cancel();
        }
        body.complete(prefix);
        return prefix;
    }
}
