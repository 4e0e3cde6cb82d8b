package org.eeoutbox.jdbc;

import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;
import org.junit.jupiter.api.DisplayName;

@DisplayName("[postgresql] lease-mode store contract")
class PostgreSqlLeaseStoreTest extends AbstractLeaseStoreTest {

    @Override
    protected TestDatabase database() {
        return TestDatabases.postgresql();
    }
}
