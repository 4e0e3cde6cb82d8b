package org.eeoutbox.it.support;

import java.util.Objects;

/**
 * What the server needs to define the test DataSource: the driver's non-XA {@code DataSource}
 * class, the JDBC URL and a login. Test JVM only.
 *
 * <p>The class is a {@code javax.sql.DataSource}, not a {@code java.sql.Driver}: with the driver in
 * WEB-INF/lib, Payara cannot load a Driver class for an application-defined DataSource ("The
 * driver could not be loaded").
 *
 * @param className the driver's {@code javax.sql.DataSource} class
 * @param url       the JDBC URL (MySQL: with {@code sslMode=DISABLED}, see {@link #serverUrl})
 * @param user      the database user
 * @param password  the password, never empty (see {@link ServerLogin})
 */
record ServerDataSource(String className, String url, String user, String password) {

    ServerDataSource {
        Objects.requireNonNull(className, "className");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
    }

    /**
     * Returns the JDBC URL for the server. Trap (measured on Payara Micro): inside the server,
     * Connector/J's default {@code sslMode=PREFERRED} handshake with MySQL 8.0.15 fails
     * ("Communications link failure" caused by "Broken pipe") although the same URL works in the
     * test JVM; the local test server needs no TLS, so it is turned off.
     */
    static String serverUrl(String url) {
        if (!url.startsWith("jdbc:mysql:") || url.contains("sslMode=")) {
            return url;
        }
        return url + (url.contains("?") ? "&" : "?") + "sslMode=DISABLED";
    }
}
