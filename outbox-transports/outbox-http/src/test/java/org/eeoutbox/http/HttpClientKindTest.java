package org.eeoutbox.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Whether each client can run, as seen from class loaders that hide what a server may hide: the
 * optional Apache jar, or (as WildFly does for a deployment) the JDK's {@code jdk.net} module.
 */
class HttpClientKindTest {

    private static final ClassLoader MODULE = HttpClientKind.class.getClassLoader();

    @Test
    void theJdkClientCanAlwaysRun() {
        assertEquals(Optional.empty(), HttpClientKind.JDK.unavailability(hiding("java.net.http.")));
    }

    @Test
    void apacheCanRunWithItsJarAndTheJdkNetModule() {
        assertEquals(Optional.empty(), HttpClientKind.APACHE.unavailability(MODULE));
        assertTrue(HttpClientKind.APACHE.isAvailable());
        assertEquals(HttpClientKind.APACHE, HttpClientKind.preferred());
    }

    @Test
    void apacheWithoutItsJarNamesTheArtifact() {
        String reason = HttpClientKind.APACHE.unavailability(hiding("org.apache.hc.")).orElseThrow();

        assertTrue(reason.startsWith("org.apache.httpcomponents.client5:httpclient5 (the apache HTTP client) is not "
                + "on the application's class path"), reason);
    }

    @Test
    void apacheWhereTheJdkNetModuleIsHiddenSaysHowToShowIt() {
        String reason = HttpClientKind.APACHE.unavailability(hiding("jdk.net.")).orElseThrow();

        assertTrue(reason.contains("jdk.net.Sockets"), reason);
        assertTrue(reason.contains("declare the module jdk.net in WEB-INF/jboss-deployment-structure.xml"), reason);
        assertTrue(reason.endsWith("or use the jdk client"), reason);
    }

    /** A class loader that delegates to this module's but does not find the classes under {@code prefix}. */
    private static ClassLoader hiding(String prefix) {
        return new ClassLoader(MODULE) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (name.startsWith(prefix)) {
                    throw new ClassNotFoundException(name);
                }
                return super.loadClass(name, resolve);
            }
        };
    }
}
