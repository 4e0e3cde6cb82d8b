package org.eeoutbox.cdi.internal;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/** Finds the providers of a service interface with {@link ServiceLoader}, leaving out those whose classes do not load. */
final class ServiceProviders {

    private static final Logger LOG = System.getLogger(ServiceProviders.class.getName());

    private ServiceProviders() {
    }

    /**
     * Returns the providers of {@code service} visible to {@code loader}, in load order; a provider
     * whose classes cannot load (the Kafka transport without the Kafka client) is left out with an
     * INFO line naming {@code what}.
     */
    static <T> List<T> load(Class<T> service, ClassLoader loader, String what) {
        List<T> found = new ArrayList<>();
        Iterator<T> iterator = ServiceLoader.load(service, loader).iterator();
        while (true) {
            try {
                if (!iterator.hasNext()) {
                    return found;
                }
                found.add(iterator.next());
            } catch (ServiceConfigurationError | LinkageError e) {
                // ServiceLoader goes on with the next provider after such an error.
                LOG.log(Level.INFO, "{0} left out, its classes do not load: {1}", what, e.toString());
            }
        }
    }
}
