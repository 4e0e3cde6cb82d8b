package org.eeoutbox.it.smoke;

import jakarta.annotation.Resource;
import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.eeoutbox.it.support.ItConfig;

/**
 * In-container bean of the smoke WAR: writes and reads table {@code it_smoke} through the
 * DataSource defined here from the {@link ItConfig} keys, the way a test WAR of the library will.
 *
 * <p>{@code ${MPCONFIG=key}} resolves system properties and environment variables only, NOT the
 * WAR's own microprofile-config.properties (it silently falls back to driver defaults), hence the
 * properties file that Payara Micro loads with {@code --systemproperties}. {@code className} must
 * be the driver's {@code javax.sql.DataSource} class: with the {@code java.sql.Driver} class Payara
 * fails with "The driver could not be loaded" when the driver is in WEB-INF/lib (measured).
 * {@code transactional = true} makes it the single non-XA resource of a JTA transaction; without
 * {@code isolationLevel} a level set by one transaction would leak to the next user of the pooled
 * connection.
 */
@DataSourceDefinition(
        name = ItConfig.DATASOURCE,
        className = "${MPCONFIG=" + ItConfig.DB_DATASOURCE + "}",
        url = "${MPCONFIG=" + ItConfig.DB_URL + "}",
        user = "${MPCONFIG=" + ItConfig.DB_USER + "}",
        password = "${MPCONFIG=" + ItConfig.DB_PASSWORD + "}",
        transactional = true,
        isolationLevel = Connection.TRANSACTION_READ_COMMITTED,
        minPoolSize = 0,
        maxPoolSize = 8)
@ApplicationScoped
public class SmokeRows {

    @Resource(lookup = ItConfig.DATASOURCE)
    DataSource dataSource;

    /** Creates the table if missing, outside any transaction (MySQL DDL would commit one). */
    public void createTable() throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS it_smoke (id VARCHAR(36) PRIMARY KEY)");
        }
    }

    /**
     * Inserts a row in the caller's transaction, or in a new one.
     *
     * @return the isolation level of the connection that wrote it
     */
    @Transactional
    public int insert(String id) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO it_smoke (id) VALUES (?)")) {
            insert.setString(1, id);
            insert.executeUpdate();
            return connection.getTransactionIsolation();
        }
    }

    /** Returns whether the row exists, read outside any transaction. */
    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public boolean exists(String id) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement("SELECT COUNT(*) FROM it_smoke WHERE id = ?")) {
            select.setString(1, id);
            try (ResultSet rows = select.executeQuery()) {
                rows.next();
                return rows.getInt(1) == 1;
            }
        }
    }
}
