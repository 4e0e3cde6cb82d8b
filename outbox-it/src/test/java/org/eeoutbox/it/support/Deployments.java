package org.eeoutbox.it.support;

import java.io.File;
import java.net.URISyntaxException;
import java.security.CodeSource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.importer.ExplodedImporter;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * Builds test WARs for {@code @Deployment} methods (test JVM only).
 *
 * <p>Libraries are taken from the test class path, where Maven put them, rather than resolved by
 * ShrinkWrap Resolver: no second resolution (about 1 to 3 s), and in a reactor build a module of
 * this project is its fresh {@code target/classes}, never a stale jar of the local repository.
 */
public final class Deployments {

    private Deployments() {
    }

    /**
     * Returns a WAR named {@code name + ".war"} with the libraries every IT needs in
     * {@code WEB-INF/lib}: the PostgreSQL, MySQL and MariaDB JDBC drivers, kafka-clients, slf4j-api and
     * slf4j-jdk14 (Kafka's log goes to the server's log), Apache HttpClient 5 (httpclient5,
     * httpcore5, httpcore5-h2: what {@code outbox.http.client=auto} picks where it can run, so the
     * suite runs it on Payara and Liberty, and the JDK client on WildFly, whose deployments do not
     * see {@code jdk.net.Sockets}), Awaitility and Hamcrest (in-container tests wait with them). Add
     * the test's own classes and {@link #addLibrariesOf the library under test}.
     */
    public static WebArchive war(String name) {
        WebArchive war = ShrinkWrap.create(WebArchive.class, name + ".war");
        // By name: referencing the slf4j classes in code makes javac warn about their OSGi annotations.
        return addLibrariesOf(war, "org.postgresql.Driver", "com.mysql.cj.jdbc.Driver", "org.mariadb.jdbc.Driver",
                "org.apache.kafka.clients.producer.KafkaProducer", "org.slf4j.LoggerFactory",
                "org.slf4j.jul.JULServiceProvider", "org.apache.hc.client5.http.impl.async.HttpAsyncClients",
                "org.apache.hc.core5.http.HttpHost", "org.apache.hc.core5.http2.HttpVersionPolicy",
                "org.awaitility.Awaitility", "org.hamcrest.Matcher");
    }

    /**
     * Like {@link #addLibrariesOf(WebArchive, Class...)}, with anchors given by class name.
     *
     * @throws IllegalArgumentException if a class is not on the test class path
     */
    public static WebArchive addLibrariesOf(WebArchive war, String... anchorClassNames) {
        for (String name : anchorClassNames) {
            try {
                addLibrariesOf(war, Class.forName(name, false, Deployments.class.getClassLoader()));
            } catch (ClassNotFoundException e) {
                throw new IllegalArgumentException(name + " is not on the test class path", e);
            }
        }
        return war;
    }

    /**
     * Adds to {@code WEB-INF/lib} the class-path entry of each anchor class: its jar, or its class
     * directory (such as a reactor module's {@code target/classes}) packed as a jar. Only that
     * entry: add the jars of its dependencies by further anchors.
     *
     * @throws IllegalArgumentException if an anchor has no file location (a JDK class)
     */
    public static WebArchive addLibrariesOf(WebArchive war, Class<?>... anchors) {
        for (Class<?> anchor : anchors) {
            File location = location(anchor);
            if (location.isDirectory()) {
                // target/classes of module m becomes m-classes.jar (m-test-classes.jar likewise).
                String jarName = location.getParentFile().getParentFile().getName() + "-" + location.getName() + ".jar";
                war.addAsLibrary(ShrinkWrap.create(ExplodedImporter.class, jarName).importDirectory(location)
                        .as(JavaArchive.class));
            } else {
                war.addAsLibrary(location);
            }
        }
        return war;
    }

    private static File location(Class<?> anchor) {
        CodeSource source = anchor.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            throw new IllegalArgumentException(anchor.getName() + " has no class-path location");
        }
        try {
            return new File(source.getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("Bad location of " + anchor.getName() + ": " + source.getLocation(), e);
        }
    }
}
