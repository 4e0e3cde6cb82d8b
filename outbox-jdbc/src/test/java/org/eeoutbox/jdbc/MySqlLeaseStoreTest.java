package org.eeoutbox.jdbc;

import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;
import org.junit.jupiter.api.DisplayName;

@DisplayName("[mysql] lease-mode store contract")
class MySqlLeaseStoreTest extends AbstractLeaseStoreTest {

    @Override
    protected TestDatabase database() {
        return TestDatabases.mysql();
    }
}
