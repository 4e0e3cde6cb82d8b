package org.eeoutbox.spi;

import java.lang.reflect.Type;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.function.Predicate;
import org.eeoutbox.config.Configuration;

/**
 * What the runtime hands a {@link TransportProvider} when the outbox starts. Thread-safe.
 */
public interface TransportContext {

    /** Returns the configuration, already checked. */
    Configuration configuration();

    /** Returns the executor for the transport's asynchronous work; inside a server, a managed executor. */
    Executor executor();

    /**
     * Returns the thread factory for a transport whose client runs long-lived threads of its own
     * (an I/O loop); inside a server, the platform's managed thread factory, looked up on the
     * first call. The transport must end every thread it made when its deliverer is closed.
     *
     * @throws IllegalStateException if the platform has no managed thread factory
     */
    ThreadFactory threadFactory();

    /** Returns the clock the outbox uses. */
    Clock clock();

    /**
     * Returns the application's beans (CDI beans inside a server; none elsewhere) of which one bean
     * type matches {@code type}, as {@code as}; for example the application's Kafka producer.
     */
    <T> List<T> applicationBeans(Class<T> as, Predicate<Type> type);
}
