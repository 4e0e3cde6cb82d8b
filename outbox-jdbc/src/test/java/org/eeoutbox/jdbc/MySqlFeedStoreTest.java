package org.eeoutbox.jdbc;

import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;
import org.junit.jupiter.api.DisplayName;

@DisplayName("[mysql] feed store contract")
class MySqlFeedStoreTest extends AbstractFeedStoreTest {

    @Override
    protected TestDatabase database() {
        return TestDatabases.mysql();
    }
}
