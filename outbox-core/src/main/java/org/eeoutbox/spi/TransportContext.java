package org.eeoutbox.spi;

import java.lang.reflect.Type;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Executor;
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

    /** Returns the clock the outbox uses. */
    Clock clock();

    /**
     * Returns the application's beans (CDI beans inside a server; none elsewhere) of which one bean
     * type matches {@code type}, as {@code as}; for example the application's Kafka producer.
     */
    <T> List<T> applicationBeans(Class<T> as, Predicate<Type> type);
}
