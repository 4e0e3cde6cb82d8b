package org.eeoutbox.it.support;

/**
 * The configuration keys that {@link ItEnvironment} publishes, and the fixed names of the
 * integration-test infrastructure.
 *
 * <p>Every {@code it.*} value is set twice: as a system property of the test JVM (read it in
 * {@code @RunAsClient} tests) and in the properties file named by {@link #PAYARA_SYSTEM_PROPERTIES},
 * which arquillian.xml hands to Payara Micro as {@code --systemproperties}. Inside Payara they are
 * system properties, so {@code @ConfigProperty(name = ItConfig.KAFKA_BOOTSTRAP)} and
 * {@code "${MPCONFIG=it.db.url}"} in a {@code @DataSourceDefinition} see them.
 *
 * <p>Only compile-time constants: using them in-container needs no class in the WAR.
 */
public final class ItConfig {

    /** Selects the database: {@code postgresql} (default) or {@code mysql}; set by failsafe. */
    public static final String DB = "it.db";
    /** JDBC URL of the test database (the MySQL one contains {@code &} and {@code sslMode=DISABLED}). */
    public static final String DB_URL = "it.db.url";
    /** Database user for Payara (see {@link PayaraLogin}: not the testkit's user when its password is empty). */
    public static final String DB_USER = "it.db.user";
    /** Database password, never empty (MP Config treats an empty value as absent). */
    public static final String DB_PASSWORD = "it.db.password";
    /** The JDBC driver class ({@code java.sql.Driver}), for plain JDBC. */
    public static final String DB_DRIVER = "it.db.driver";
    /**
     * The driver's non-XA {@code javax.sql.DataSource} class, for {@code @DataSourceDefinition.className}.
     * Payara cannot use the Driver class there when the driver is in WEB-INF/lib ("The driver could
     * not be loaded": its pool loads a Driver outside the application's class loader).
     */
    public static final String DB_DATASOURCE = "it.db.datasource";
    /** {@code bootstrap.servers} of the Kafka broker. */
    public static final String KAFKA_BOOTSTRAP = "it.kafka.bootstrap";
    /** Base URL of the HTTP receiver, {@code http://127.0.0.1:PORT}, no trailing slash. */
    public static final String RECEIVER_URL = "it.receiver.url";
    /** Path of the properties file holding all the values above, for Payara's {@code --systemproperties}. */
    public static final String PAYARA_SYSTEM_PROPERTIES = "it.payara.systemProperties";

    /** The topic created on the broker at startup (1 partition). */
    public static final String KAFKA_TOPIC = "outbox-it";
    /** JNDI name of the DataSource that test WARs define with {@code @DataSourceDefinition}. */
    public static final String DATASOURCE = "java:app/jdbc/outbox";

    private ItConfig() {
    }
}
