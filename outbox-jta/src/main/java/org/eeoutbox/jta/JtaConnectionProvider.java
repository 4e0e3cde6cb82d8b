package org.eeoutbox.jta;

import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import javax.sql.DataSource;
import org.eeoutbox.jdbc.ConnectionProvider;

/**
 * Lends the container DataSource's connection, which the container enlists in the JTA
 * transaction current on the thread, so the store's statements commit or roll back with it.
 *
 * <p>Refuses to run outside an active transaction: a statement there would commit on its own,
 * outside the caller's unit of work. Thread-safe.
 */
public final class JtaConnectionProvider implements ConnectionProvider {

    private final DataSource dataSource;
    private final TransactionSynchronizationRegistry registry;

    /**
     * @param dataSource a container DataSource whose connections are enlisted in JTA transactions
     *                   (for {@code @DataSourceDefinition}, {@code transactional = true})
     */
    public JtaConnectionProvider(DataSource dataSource, TransactionSynchronizationRegistry registry) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException naming the transaction status found, unless it is
     *                               {@code STATUS_ACTIVE}; nothing runs
     */
    @Override
    public <T> T withConnection(SqlFunction<T> work) throws SQLException {
        int status = registry.getTransactionStatus();
        if (status != Status.STATUS_ACTIVE) {
            throw new IllegalStateException("The outbox needs an active JTA transaction, found "
                    + TransactionStatuses.name(status) + ". Ensure that publish() is called within a transaction, "
                    + "for example from a @Transactional method, and that the transaction is not marked for rollback "
                    + "(a transaction that outlives its timeout is marked so, for outbox batches after "
                    + "outbox.processor.transaction-timeout).");
        }
        try (Connection connection = dataSource.getConnection()) {
            return work.apply(connection);
        }
    }
}
