package org.eeoutbox.cdi.internal;

import java.lang.reflect.Type;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.spi.TransportContext;

/**
 * What the runtime hands each transport when the outbox starts. Immutable; thread-safe when the
 * bean source is.
 *
 * @param threads gives the thread factory, when a transport first asks for it
 * @param beans   the application's beans
 */
record RuntimeTransportContext(Configuration configuration, Executor executor, Supplier<ThreadFactory> threads,
                               Clock clock, OutboxAssembly.ApplicationBeanSource beans) implements TransportContext {

    @Override
    public ThreadFactory threadFactory() {
        return threads.get();
    }

    @Override
    public <T> List<T> applicationBeans(Class<T> as, Predicate<Type> type) {
        return beans.beans(as, type);
    }
}
