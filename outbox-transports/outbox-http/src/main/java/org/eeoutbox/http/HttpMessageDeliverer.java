package org.eeoutbox.http;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxHeaders;

/**
 * Delivers {@link HttpDelivery} entries (delivery type {@value HttpDelivery#DELIVERY_TYPE}) with
 * the JDK {@link HttpClient} or Apache HttpClient 5 ({@link HttpClientKind}): the payload is the
 * request body, sent to the base URL that the {@link HttpServiceResolver} gives for the entry's
 * service plus the entry's path.
 *
 * <h2>Classification</h2>
 * <table>
 *   <caption>Outcome of one attempt</caption>
 *   <tr><th>What happened</th><th>Result</th></tr>
 *   <tr><td>2xx</td><td>{@link DeliveryResult.Delivered}</td></tr>
 *   <tr><td>408, 429, 5xx</td><td>{@link DeliveryResult.RetriableFailure}; on 429 and 503 a
 *       {@code Retry-After} (delta-seconds or HTTP-date, at most one day ahead) sets
 *       {@code notBefore}</td></tr>
 *   <tr><td>any other status, 3xx included (redirects are never followed)</td>
 *       <td>{@link DeliveryResult.PermanentFailure}</td></tr>
 *   <tr><td>connection failure ({@link ConnectException}) or other {@link IOException}</td>
 *       <td>retriable</td></tr>
 *   <tr><td>timeout ({@link java.net.http.HttpTimeoutException}, connect or request; with Apache
 *       HttpClient, no data for the request timeout), or no complete
 *       response within {@link HttpDelivererSettings#attemptTimeout()}</td><td>retriable</td></tr>
 *   <tr><td>TLS failure: an {@link SSLException} (or subclass) anywhere in the cause chain,
 *       such as an untrusted certificate or a host name mismatch</td><td>permanent</td></tr>
 *   <tr><td>unknown service (the resolver returns empty), or a base URL that is not a valid
 *       one</td><td>permanent, naming the service</td></tr>
 *   <tr><td>unreadable or invalid metadata (not JSON, a missing field, a rule of
 *       {@link HttpDelivery} broken, a path that would leave the base URL): nothing is
 *       sent</td><td>permanent</td></tr>
 *   <tr><td>an entry of another delivery type</td><td>permanent</td></tr>
 *   <tr><td>the resolver throws, or any other unexpected exception</td><td>retriable</td></tr>
 *   <tr><td>the deliverer is {@linkplain #close() closed}</td><td>{@link DeliveryResult.Postponed},
 *       one second ahead, not sent</td></tr>
 * </table>
 * A failure's reason reads, for example, {@code HTTP 500 from service 'billing': <body>}, with at
 * most the first {@value #MAX_BODY_BYTES} bytes of the response body: the rest is never read
 * (the connection is closed instead), so a huge response body costs nothing.
 *
 * <h2>Requests</h2>
 * The delivery's method, its headers, then {@code Content-Type}, and last
 * {@value OutboxHeaders#MESSAGE_TYPE} with the message type (percent-encoded outside printable
 * ASCII), {@value OutboxHeaders#ATTEMPT} with the attempt's number (1 for the first) and
 * {@value OutboxHeaders#OUTBOX_ID} with the entry's id, and for an entry with an ordering key
 * {@value OutboxHeaders#ORDERING_KEY} (encoded as the message type) and
 * {@value OutboxHeaders#ORDERING_SEQ}, which override delivery headers of those names in any case;
 * for an entry with a {@linkplain OutboxEntry#traceContext() trace context}
 * {@value OutboxHeaders#TRACEPARENT} and {@value OutboxHeaders#TRACESTATE}, replacing the
 * delivery's. HTTP/1.1, redirects never followed, TLS certificates and host names verified against the given
 * {@link SSLContext} (the JVM default unless one is given). Metadata read from the database is
 * checked again, with every rule of {@link HttpDelivery}, and the final URL must stay on the base
 * URL's scheme, host and port, below its path.
 *
 * <h2>Concurrency</h2>
 * {@link #deliverBatch} sends the whole batch at once, asynchronously, at most
 * {@link HttpDelivererSettings#maxInFlight()} requests in flight across all callers of this
 * deliverer (the calling thread waits for a permit), and returns the results in input order.
 * Every attempt ends within {@link HttpDelivererSettings#attemptTimeout()}, its response body
 * included, so one slow receiver never holds up the others' results beyond that.
 *
 * <p>The JDK client runs its asynchronous work on the {@link Executor} given to the constructor
 * and keeps one selector thread of its own, which ends once the deliverer is closed (Java 21 and
 * later) or unreachable. Apache HttpClient runs on threads from the {@link ThreadFactory} given
 * to the constructor, which end when the deliverer is closed. Inside a server pass a managed
 * executor and a managed thread factory. The deliverer never shuts either down: its owner does.
 *
 * <p>Thread-safe. {@link #deliver} and {@link #deliverBatch} never throw (save
 * {@link NullPointerException} for a {@code null} argument): every failure is a
 * {@link DeliveryResult}. If the calling thread is interrupted, entries not yet sent are
 * postponed, entries in flight are abandoned as retriable, and the interrupt flag is kept.
 */
public final class HttpMessageDeliverer implements MessageDeliverer, AutoCloseable {

    /** The most bytes of a response body kept for a failure's reason. */
    public static final int MAX_BODY_BYTES = 2048;

    private static final Logger LOG = System.getLogger(HttpMessageDeliverer.class.getName());
    private static final Duration CLOSED_RETRY_DELAY = Duration.ofSeconds(1);

    private final HttpServiceResolver resolver;
    private final Clock clock;
    private final HttpDelivererSettings settings;
    private final HttpSender sender;
    private final Semaphore permits;
    private final long attemptTimeoutNanos;
    private volatile boolean closed;

    /**
     * Creates a deliverer on the JDK client that verifies TLS certificates against the JVM's
     * default {@link SSLContext}.
     *
     * @see #HttpMessageDeliverer(HttpServiceResolver, Executor, Clock, HttpDelivererSettings, SSLContext)
     */
    public HttpMessageDeliverer(HttpServiceResolver resolver, Executor executor, Clock clock,
                                HttpDelivererSettings settings) {
        this(resolver, executor, clock, settings, null);
    }

    /**
     * Creates a deliverer on the JDK client.
     *
     * @see #HttpMessageDeliverer(HttpServiceResolver, HttpClientKind, Executor, ThreadFactory, Clock,
     *      HttpDelivererSettings, SSLContext)
     */
    public HttpMessageDeliverer(HttpServiceResolver resolver, Executor executor, Clock clock,
                                HttpDelivererSettings settings, SSLContext sslContext) {
        this(resolver, HttpClientKind.JDK, executor, Executors.defaultThreadFactory(), clock, settings, sslContext);
    }

    /**
     * Creates a deliverer.
     *
     * @param resolver   maps service names to base URLs
     * @param client     the HTTP client to send with
     * @param threads    makes the threads of {@link HttpClientKind#APACHE}; a managed thread factory
     *                   inside a server. Owned by the caller; unused by the JDK client
     * @param executor   runs the client's asynchronous work; a managed executor inside a server.
     *                   Owned by the caller, never shut down here
     * @param clock      the time {@code Retry-After} is counted from
     * @param settings   timeouts and the cap on requests in flight
     * @param sslContext the trust (and key) material for {@code https}, for a custom trust store
     *                   or in tests; {@code null} for the JVM default. Certificate and host name
     *                   verification stay on either way
     * @throws NullPointerException    if an argument other than {@code sslContext} is {@code null}
     * @throws IllegalArgumentException if {@code client} is not {@linkplain HttpClientKind#isAvailable()
     *                                 available}
     * @throws jakarta.json.JsonException if no Jakarta JSON Processing implementation is
     *                                 available
     */
    public HttpMessageDeliverer(HttpServiceResolver resolver, HttpClientKind client, Executor executor,
                                ThreadFactory threads, Clock clock, HttpDelivererSettings settings,
                                SSLContext sslContext) {
        this.resolver = Objects.requireNonNull(resolver, "resolver");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.settings = Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(threads, "threads");
        client.unavailability().ifPresent(reason -> {
            throw new IllegalArgumentException(reason);
        });
        HttpDelivery.json();
        this.sender = client.sender(executor, threads, settings, sslContext);
        this.permits = new Semaphore(settings.maxInFlight(), true);
        this.attemptTimeoutNanos = settings.attemptTimeout().toNanos();
        LOG.log(Level.DEBUG, "HTTP deliverer created: {0} client, {1}, {2}", sender, settings, resolver);
    }

    /** Returns {@value HttpDelivery#DELIVERY_TYPE}. */
    @Override
    public String deliveryType() {
        return HttpDelivery.DELIVERY_TYPE;
    }

    /**
     * Makes one attempt, classified as in the table of this class; never throws.
     *
     * @throws NullPointerException if {@code entry} is {@code null}
     */
    @Override
    public DeliveryResult deliver(OutboxEntry entry) {
        return deliverBatch(List.of(entry)).get(0);
    }

    /**
     * Makes one attempt per entry, concurrently within the in-flight cap; returns one result per
     * entry in input order and never throws.
     *
     * @throws NullPointerException if {@code entries} or one of them is {@code null}
     */
    @Override
    public List<DeliveryResult> deliverBatch(List<OutboxEntry> entries) {
        entries.forEach(entry -> Objects.requireNonNull(entry, "entry"));
        int count = entries.size();
        DeliveryResult[] results = new DeliveryResult[count];
        if (closed) {
            Instant retryAt = clock.instant().plus(CLOSED_RETRY_DELAY);
            Arrays.fill(results, DeliveryResult.postponed(HttpMessages.closed(), retryAt));
            return List.of(results);
        }
        HttpAttempt[] attempts = new HttpAttempt[count];
        HttpRequests requests = new HttpRequests(resolver, settings, clock);
        try {
            for (int i = 0; i < count; i++) {
                HttpRequests.Prepared prepared = requests.prepare(entries.get(i));
                if (prepared.failure() != null) {
                    results[i] = prepared.failure();
                } else {
                    acquirePermit(attempts, i);
                    attempts[i] = send(prepared);
                }
            }
            for (int i = 0; i < count; i++) {
                if (attempts[i] != null) {
                    results[i] = await(attempts[i]);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            DeliveryResult unsent = DeliveryResult.postponed(HttpMessages.interruptedBeforeSending(), clock.instant());
            settle(results, attempts, unsent,
                    attempt -> DeliveryResult.retriable(HttpMessages.interruptedWhileWaiting(attempt.service)));
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "HTTP deliverer failed unexpectedly; unsettled entries of the batch are retriable", e);
            DeliveryResult failure = DeliveryResult.retriable(HttpMessages.deliverFailed(e));
            settle(results, attempts, failure, attempt -> failure);
        }
        return List.of(results);
    }

    /**
     * Returns {@code ceil(batchSize / maxInFlight) × attemptTimeout()}: each wave of requests ends
     * within one attempt timeout. Callers sharing the deliverer's permits can stretch it.
     */
    @Override
    public Optional<Duration> maxBatchDuration(int batchSize) {
        long waves = (Math.max(batchSize, 1) + settings.maxInFlight() - 1L) / settings.maxInFlight();
        return Optional.of(settings.attemptTimeout().multipliedBy(waves));
    }

    /**
     * Returns the method, the request URL without its query and the service, for example
     * {@code POST http://billing:8080/hooks/orders (service 'billing')}; only
     * {@code service 'billing'} when the resolver gives no usable base URL for it. No credentials:
     * a base URL with user info is refused, and the path's query, which may carry a token, is left
     * out. Asks the resolver, which is local.
     *
     * @throws IllegalArgumentException if the entry's metadata is not a valid HTTP delivery
     */
    @Override
    public String describeDestination(OutboxEntry entry) {
        HttpDelivery delivery = HttpDelivery.fromMetadataJson(entry.deliveryMetadata());
        String service = "service '" + delivery.serviceName() + "'";
        Optional<URI> baseUrl = resolver.resolve(delivery.serviceName());
        URI target = baseUrl == null || baseUrl.isEmpty() || HttpRules.baseUrlProblem(baseUrl.get()) != null ? null
                : HttpRules.resolve(baseUrl.get(), delivery.path());
        if (target == null) {
            return service;
        }
        return delivery.method().name() + " " + target.getScheme() + "://" + target.getRawAuthority()
                + target.getRawPath() + " (" + service + ")";
    }

    /**
     * Marks the deliverer closed: later calls postpone their entries without sending. Closes the
     * client, which ends its threads: Apache HttpClient's always, the JDK client's selector thread
     * on Java 21 and later (after the requests in flight). Does not shut down the executor or the
     * thread factory. Idempotent.
     */
    @Override
    public void close() {
        closed = true;
        sender.close();
    }

    // ---- Sending and waiting ----

    /** Waits for a permit; while waiting, expires this caller's own requests past their deadline. */
    private void acquirePermit(HttpAttempt[] attempts, int upTo) throws InterruptedException {
        while (!permits.tryAcquire(nanosToNextDeadline(attempts, upTo), TimeUnit.NANOSECONDS)) {
            long now = System.nanoTime();
            for (int i = 0; i < upTo; i++) {
                HttpAttempt attempt = attempts[i];
                if (attempt != null && attempt.pending() && now - attempt.deadline >= 0) {
                    attempt.result = expire(attempt);
                }
            }
        }
    }

    private long nanosToNextDeadline(HttpAttempt[] attempts, int upTo) {
        long now = System.nanoTime();
        long wait = attemptTimeoutNanos;
        for (int i = 0; i < upTo; i++) {
            HttpAttempt attempt = attempts[i];
            if (attempt != null && attempt.pending()) {
                wait = Math.min(wait, attempt.deadline - now);
            }
        }
        return Math.max(wait, 0);
    }

    private HttpAttempt send(HttpRequests.Prepared prepared) {
        HttpAttempt attempt = new HttpAttempt(prepared, System.nanoTime() + attemptTimeoutNanos, permits);
        try {
            attempt.exchange = sender.send(prepared.request());
            attempt.exchange.reply().whenComplete((reply, error) -> attempt.release());
        } catch (RuntimeException e) {
            attempt.release();
            attempt.result = failure(attempt, e);
        }
        return attempt;
    }

    private DeliveryResult await(HttpAttempt attempt) throws InterruptedException {
        if (attempt.result != null) {
            return attempt.result;
        }
        long remaining = Math.max(0, attempt.deadline - System.nanoTime());
        try {
            return outcome(attempt, attempt.exchange.reply().get(remaining, TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
            return expire(attempt);
        } catch (ExecutionException e) {
            return failure(attempt, e.getCause());
        } catch (CancellationException e) {
            return failure(attempt, e);
        }
    }

    /**
     * Gives up on a request past its deadline. If the response's status has arrived and only
     * its body is late, the status decides, with the body received so far.
     */
    private DeliveryResult expire(HttpAttempt attempt) {
        if (attempt.exchange.reply().isDone()) {
            return completed(attempt);
        }
        HttpReply partial = attempt.exchange.cutShort();
        attempt.release();
        if (partial != null) {
            return outcome(attempt, partial);
        }
        return logged(attempt, DeliveryResult.retriable(
                HttpMessages.requestTimeout(attempt.service, settings.attemptTimeout())));
    }

    /** Settles every entry still without a result after an interrupt or a bug. */
    private void settle(DeliveryResult[] results, HttpAttempt[] attempts, DeliveryResult unsent,
                        Function<HttpAttempt, DeliveryResult> abandoned) {
        for (int i = 0; i < results.length; i++) {
            if (results[i] != null) {
                continue;
            }
            HttpAttempt attempt = attempts[i];
            if (attempt == null) {
                results[i] = unsent;
            } else if (attempt.result != null) {
                results[i] = attempt.result;
            } else if (attempt.exchange != null && attempt.exchange.reply().isDone()) {
                results[i] = completed(attempt);
            } else {
                if (attempt.exchange != null) {
                    attempt.exchange.cancel();
                }
                attempt.release();
                results[i] = abandoned.apply(attempt);
            }
        }
    }

    private DeliveryResult completed(HttpAttempt attempt) {
        try {
            return outcome(attempt, attempt.exchange.reply().join());
        } catch (CompletionException e) {
            return failure(attempt, e.getCause());
        } catch (CancellationException e) {
            return failure(attempt, e);
        }
    }

    // ---- Classification (HttpOutcomes) ----

    private DeliveryResult outcome(HttpAttempt attempt, HttpReply reply) {
        DeliveryResult result = HttpOutcomes.outcome(attempt.service, reply, clock);
        if (result instanceof DeliveryResult.Delivered) {
            LOG.log(Level.DEBUG, "Outbox entry {0} delivered to HTTP service {1}: HTTP {2}", attempt.entry.id(),
                    attempt.service, reply.status());
            return result;
        }
        return logged(attempt, result);
    }

    private DeliveryResult failure(HttpAttempt attempt, Throwable error) {
        DeliveryResult known = HttpOutcomes.failure(attempt.service, error, settings);
        if (known != null) {
            return logged(attempt, known);
        }
        LOG.log(Level.WARNING, "Outbox entry " + attempt.entry.id() + ": unexpected failure sending to HTTP service "
                + attempt.service, error);
        return DeliveryResult.retriable(HttpMessages.unexpectedFailure(attempt.service, error));
    }

    private static DeliveryResult logged(HttpAttempt attempt, DeliveryResult result) {
        LOG.log(Level.DEBUG, "Outbox entry {0} to HTTP service {1}: {2}", attempt.entry.id(), attempt.service, result);
        return result;
    }

    @Override
    public String toString() {
        return "HttpMessageDeliverer[" + sender + " client, " + settings + ", " + resolver + (closed ? ", closed" : "") + "]";
    }

    /** Returns the permits free now; for tests. */
    int availablePermits() {
        return permits.availablePermits();
    }
}
