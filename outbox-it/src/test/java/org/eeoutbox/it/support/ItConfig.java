package org.eeoutbox.it.support;

/**
 * The system properties that configure the integration tests (set by failsafe from the server
 * profile and the execution), and the fixed names of the integration-test infrastructure.
 *
 * <p>Nothing here reaches the server: the test WAR carries everything the server side needs
 * (DataSource definition, receiver URL, broker address), written by {@code TestApps} in the test
 * JVM, so that no server needs a mechanism of its own to receive test settings.
 *
 * <p>Only compile-time constants: using them in-container needs no class in the WAR.
 */
public final class ItConfig {

    /** Selects the database: {@code postgresql} (default), {@code mysql} or {@code mariadb}; set by failsafe. */
    public static final String DB = "it.db";
    /** The server's log file, which the connectors do not copy reliably; set by the server profile. */
    public static final String SERVER_LOG = "it.server.log";
    /** Whether the server provides MicroProfile Metrics ({@code true} or {@code false}); set by the server profile. */
    public static final String SERVER_METRICS = "it.server.metrics";
    /** Whether the server provides MicroProfile Health ({@code true} or {@code false}); set by the server profile. */
    public static final String SERVER_HEALTH = "it.server.health";
    /**
     * Whether the server resolves {@code ${MPCONFIG=key}} in a {@code @DataSourceDefinition} from the
     * application's MicroProfile Config ({@code true} or {@code false}); set by the server profile.
     */
    public static final String SERVER_DATASOURCE_MPCONFIG = "it.server.datasource-mpconfig";

    /** The topic created on the broker at startup (1 partition). */
    public static final String KAFKA_TOPIC = "outbox-it";
    /** JNDI name of the DataSource that test WARs define in their {@code web.xml}. */
    public static final String DATASOURCE = "java:app/jdbc/outbox";

    private ItConfig() {
    }
}
