package org.eeoutbox.cdi.internal;

import java.lang.reflect.Type;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Predicate;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.spi.TransportContext;

/**
 * What the runtime hands each transport when the outbox starts. Immutable; thread-safe when the
 * bean source is.
 *
 * @param beans the application's beans
 */
record RuntimeTransportContext(Configuration configuration, Executor executor, Clock clock,
                               OutboxAssembly.ApplicationBeanSource beans) implements TransportContext {

    @Override
    public <T> List<T> applicationBeans(Class<T> as, Predicate<Type> type) {
        return beans.beans(as, type);
    }
}
