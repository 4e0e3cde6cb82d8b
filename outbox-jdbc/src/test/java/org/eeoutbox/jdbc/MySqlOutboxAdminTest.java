package org.eeoutbox.jdbc;

import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;
import org.junit.jupiter.api.DisplayName;

@DisplayName("[mysql] operations API contract")
class MySqlOutboxAdminTest extends AbstractOutboxAdminTest {

    @Override
    protected TestDatabase database() {
        return TestDatabases.mysql();
    }
}
