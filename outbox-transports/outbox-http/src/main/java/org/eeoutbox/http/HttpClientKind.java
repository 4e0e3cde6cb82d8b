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

    /** A class of Apache HttpClient 5, looked for by name. */
    private static final String APACHE_CLIENT_CLASS = "org.apache.hc.client5.http.impl.async.HttpAsyncClients";

    /** Whether the client's classes can be loaded by the class loader of this module. */
    public boolean isAvailable() {
        if (this == JDK) {
            return true;
        }
        // By name, and not through ApacheHttpSender: loading that class links it against Apache
        // HttpClient, which fails with NoClassDefFoundError when the optional jar is absent.
        try {
            Class.forName(APACHE_CLIENT_CLASS, false, HttpClientKind.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** {@link #APACHE} when available, else {@link #JDK}: what {@code outbox.http.client=auto} picks. */
    public static HttpClientKind preferred() {
        return APACHE.isAvailable() ? APACHE : JDK;
    }

    /** Returns the property value that names this client, {@code jdk} or {@code apache}. */
    public String propertyValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Creates the sender; the caller has checked {@link #isAvailable()}. {@link ApacheHttpSender} is
     * loaded only when this runs for {@link #APACHE}.
     */
    HttpSender sender(Executor executor, ThreadFactory threads, HttpDelivererSettings settings,
                      SSLContext sslContext) {
        return switch (this) {
            case JDK -> new JdkHttpSender(executor, settings, sslContext);
            case APACHE -> new ApacheHttpSender(threads, settings, sslContext);
        };
    }
}
