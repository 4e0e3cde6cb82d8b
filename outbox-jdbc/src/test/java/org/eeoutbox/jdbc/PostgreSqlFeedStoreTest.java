package org.eeoutbox.jdbc;

import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;
import org.junit.jupiter.api.DisplayName;

@DisplayName("[postgresql] feed store contract")
class PostgreSqlFeedStoreTest extends AbstractFeedStoreTest {

    @Override
    protected TestDatabase database() {
        return TestDatabases.postgresql();
    }
}
