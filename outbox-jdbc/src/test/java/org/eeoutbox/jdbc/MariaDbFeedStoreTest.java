package org.eeoutbox.jdbc;

import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;
import org.junit.jupiter.api.DisplayName;

@DisplayName("[mariadb] feed store contract")
class MariaDbFeedStoreTest extends AbstractFeedStoreTest {

    @Override
    protected TestDatabase database() {
        return TestDatabases.mariadb();
    }
}
