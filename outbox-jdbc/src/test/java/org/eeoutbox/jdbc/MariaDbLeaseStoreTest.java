package org.eeoutbox.jdbc;

import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;
import org.junit.jupiter.api.DisplayName;

@DisplayName("[mariadb] lease-mode store contract")
class MariaDbLeaseStoreTest extends AbstractLeaseStoreTest {

    @Override
    protected TestDatabase database() {
        return TestDatabases.mariadb();
    }
}
