package org.eeoutbox.jdbc;

import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;
import org.junit.jupiter.api.DisplayName;

/** The store contract on MariaDB, whose session SQL is MySQL's. */
@DisplayName("[mariadb] outbox store contract")
class MariaDbOutboxStoreTest extends MySqlOutboxStoreTest {

    @Override
    protected TestDatabase database() {
        return TestDatabases.mariadb();
    }
}
