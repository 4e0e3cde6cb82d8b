package org.eeoutbox.jdbc;

import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;
import org.junit.jupiter.api.DisplayName;

@DisplayName("[mariadb] per-key ordering contract")
class MariaDbOrderingTest extends MySqlOrderingTest {

    @Override
    protected TestDatabase database() {
        return TestDatabases.mariadb();
    }
}
