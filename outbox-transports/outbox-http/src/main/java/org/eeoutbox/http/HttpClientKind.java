package org.eeoutbox.http;

import java.util.Locale;
import java.util.Optional;
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
    /**
     * A JDK class that Apache HttpClient 5's I/O reactor loads (httpcore5's {@code ReflectionUtils})
     * and that WildFly hides from deployments: without it the reactor dies at the first connection.
     */
    private static final String APACHE_JDK_CLASS = "jdk.net.Sockets";

    /** Whether the client can run in this application: {@link #unavailability()} is empty. */
    public boolean isAvailable() {
        return unavailability().isEmpty();
    }

    /**
     * Why the client cannot run in this application, in a sentence that says what to do; empty
     * when it can. The JDK client always can; Apache HttpClient 5 needs its jar on the
     * application's class path and the JDK's {@code jdk.net} module visible to the application.
     */
    public Optional<String> unavailability() {
        return unavailability(HttpClientKind.class.getClassLoader());
    }

    /** {@link #unavailability()} as seen from {@code loader} (the loader of this module, or a test's). */
    Optional<String> unavailability(ClassLoader loader) {
        if (this == JDK) {
            return Optional.empty();
        }
        // By name, and not through ApacheHttpSender: loading that class links it against Apache
        // HttpClient, which fails with NoClassDefFoundError when the optional jar is absent.
        if (!loads(APACHE_CLIENT_CLASS, loader)) {
            return Optional.of("org.apache.httpcomponents.client5:httpclient5 (the apache HTTP client) is not on "
                    + "the application's class path: add it, or use the jdk client");
        }
        if (!loads(APACHE_JDK_CLASS, loader)) {
            return Optional.of("Apache HttpClient 5 is on the class path but cannot run here: its I/O reactor "
                    + "needs the JDK class " + APACHE_JDK_CLASS + ", which the application does not see (WildFly "
                    + "hides it from deployments: declare the module jdk.net in WEB-INF/jboss-deployment-structure.xml"
                    + "), or use the jdk client");
        }
        return Optional.empty();
    }

    /** Whether Apache HttpClient 5's jar is on the class path, whether or not it can run. */
    static boolean apacheOnClassPath() {
        return loads(APACHE_CLIENT_CLASS, HttpClientKind.class.getClassLoader());
    }

    private static boolean loads(String className, ClassLoader loader) {
        try {
            Class.forName(className, false, loader);
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
