package org.eeoutbox.http;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A body subscriber that keeps at most {@code limit} bytes of a response body. As soon as more
 * arrives it cancels its subscription, which makes the client close the connection instead of
 * reading on, and completes with the prefix: a huge body is never read whole, let alone
 * buffered. Bodies that fit end normally, so their connection stays reusable.
 *
 * <p>{@link #finishEarly()} ends it from another thread, with what has arrived so far, for a
 * response whose body stalls past the attempt's deadline. Thread-safe.
 */
final class BoundedBodySubscriber implements HttpResponse.BodySubscriber<BoundedBodySubscriber.Prefix> {

    /**
     * The first bytes of a body.
     *
     * @param bytes     at most the limit
     * @param truncated whether the body went on (or may have gone on) past {@code bytes}
     */
    record Prefix(byte[] bytes, boolean truncated) {
    }

    private final byte[] buffer;
    private final CompletableFuture<Prefix> body = new CompletableFuture<>();
    private Flow.Subscription subscription;
    private int size;
    private boolean finished;
    private boolean truncated;

    BoundedBodySubscriber(int limit) {
        this.buffer = new byte[limit];
    }

    @Override
    public CompletionStage<Prefix> getBody() {
        return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription newSubscription) {
        boolean cancel;
        synchronized (this) {
            cancel = subscription != null || finished;
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
        Prefix full = null;
        synchronized (this) {
            if (finished) {
                return;
            }
            for (ByteBuffer item : items) {
                int n = Math.min(item.remaining(), buffer.length - size);
                item.get(buffer, size, n);
                size += n;
                if (item.hasRemaining()) {
                    full = finish(true);
                    break;
                }
            }
        }
        if (full != null) {
            subscription.cancel();
            body.complete(full);
        } else {
            subscription.request(1);
        }
    }

    @Override
    public void onError(Throwable error) {
        synchronized (this) {
            finished = true;
        }
        body.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        Prefix prefix;
        synchronized (this) {
            if (finished) {
                return;
            }
            prefix = finish(false);
        }
        body.complete(prefix);
    }

    /**
     * Stops reading, completes with the bytes received so far (marked truncated) unless the
     * body had already ended, and returns the bytes received.
     */
    Prefix finishEarly() {
        Prefix prefix;
        Flow.Subscription toCancel;
        synchronized (this) {
            if (finished) {
                return new Prefix(Arrays.copyOf(buffer, size), truncated);
            }
            prefix = finish(true);
            toCancel = subscription;
        }
        if (toCancel != null) {
            toCancel.cancel();
        }
        body.complete(prefix);
        return prefix;
    }

    private Prefix finish(boolean cut) {
        finished = true;
        truncated = cut;
        return new Prefix(Arrays.copyOf(buffer, size), cut);
    }
}
