package org.eeoutbox.cdi.internal;

import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import java.lang.reflect.Type;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * The application's beans as the container announced them while deploying, so the outbox can use
 * the application's deliverers and Kafka producer wherever they are declared.
 *
 * <p>Not an {@code Instance} lookup: the outbox's beans are added by its extension, and Payara
 * does not let such beans see beans of the application's {@code WEB-INF/classes} (measured:
 * {@code Instance<MessageDeliverer>} found none). Filled by {@link org.eeoutbox.cdi.OutboxExtension} during
 * discovery, read after it. Thread-safe.
 */
public final class ApplicationBeans {

    private final List<Bean<?>> beans = new CopyOnWriteArrayList<>();

    public void add(Bean<?> bean) {
        beans.add(bean);
    }

    /**
     * Returns a contextual reference to each bean that has a type matching {@code type}.
     *
     * @param as the type the references are used as; every matching bean must have it
     */
    @SuppressWarnings("unchecked") // the caller's T is as or a parameterization of it
    <T> List<T> references(BeanManager manager, Class<?> as, Predicate<Type> type) {
        return beans.stream()
                .filter(bean -> bean.getTypes().stream().anyMatch(type))
                .map(bean -> (T) as.cast(manager.getReference(bean, as, manager.createCreationalContext(bean))))
                .toList();
    }
}
