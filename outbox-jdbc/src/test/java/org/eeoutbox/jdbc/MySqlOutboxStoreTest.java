package org.eeoutbox.jdbc;

import java.util.List;
import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;
import org.junit.jupiter.api.DisplayName;

@DisplayName("[mysql] outbox store contract")
class MySqlOutboxStoreTest extends AbstractOutboxStoreTest {

    @Override
    protected TestDatabase database() {
        return TestDatabases.mysql();
    }

    @Override
    protected String nonUtcSessionZoneSql() {
        // Session-scoped on MySQL; harmless for the pooled connection since DATETIME ignores it.
        return "SET time_zone = '-08:00'";
    }

    @Override
    protected String lockWaitsSql() {
        return "SELECT COUNT(*) FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'";
    }

    @Override
    protected List<String> applicationUserSql(String user, String password) {
        return List.of("CREATE USER IF NOT EXISTS '" + user + "'@'%' IDENTIFIED BY '" + password + "'",
                "GRANT SELECT, INSERT, UPDATE, DELETE ON outbox TO '" + user + "'@'%'",
                "GRANT SELECT, INSERT, UPDATE, DELETE ON outbox_attempt TO '" + user + "'@'%'",
                "GRANT SELECT, INSERT, UPDATE, DELETE ON outbox_pause TO '" + user + "'@'%'",
                "GRANT SELECT, INSERT, UPDATE, DELETE ON outbox_key_sequence TO '" + user + "'@'%'");
    }
}
