package org.eeoutbox.http;

import java.util.Locale;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import javax.net.ssl.SSLContext;

/**
 * The HTTP client an {@link HttpMessageDeliverer} sends with (property
 * {@code outbox.http.client}). Both behave the same (docs/http.md); they differ in cost and
 * dependencies.
 */
public enum HttpClientKind {

    /**
     * The JDK {@code java.net.http.HttpClient}: no dependency. Runs its work on the deliverer's
     * {@link Executor} plus one selector thread of its own.
     */
    JDK,

    /**
     * Apache HttpClient 5 (async): several times cheaper per request on Java 17. Needs
     * {@code org.apache.httpcomponents.client5:httpclient5} (with httpcore5, httpcore5-h2 and
     * slf4j-api) on the class path. Every thread it runs on comes from the deliverer's
     * {@link ThreadFactory}.
     */
    APACHE;

    /** Whether the client's classes can be loaded. */
    public boolean isAvailable() {
        return this == JDK || ApacheHttpSender.isPresent();
    }

    /** {@link #APACHE} when available, else {@link #JDK}: what {@code outbox.http.client=auto} picks. */
    public static HttpClientKind preferred() {
        return APACHE.isAvailable() ? APACHE : JDK;
    }

    /** Returns the property value that names this client, {@code jdk} or {@code apache}. */
    public String propertyValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Creates the sender; the caller has checked {@link #isAvailable()}. */
    HttpSender sender(Executor executor, ThreadFactory threads, HttpDelivererSettings settings,
                      SSLContext sslContext) {
        return switch (this) {
            case JDK -> new JdkHttpSender(executor, settings, sslContext);
            case APACHE -> new ApacheHttpSender(threads, settings, sslContext);
        };
    }
}
