package org.eeoutbox.jdbc;

import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;
import org.junit.jupiter.api.DisplayName;

@DisplayName("[mariadb] operations API contract")
class MariaDbOutboxAdminTest extends AbstractOutboxAdminTest {

    @Override
    protected TestDatabase database() {
        return TestDatabases.mariadb();
    }
}
