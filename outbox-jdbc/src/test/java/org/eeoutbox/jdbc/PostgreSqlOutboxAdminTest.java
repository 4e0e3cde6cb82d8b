package org.eeoutbox.jdbc;

import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;
import org.junit.jupiter.api.DisplayName;

@DisplayName("[postgresql] operations API contract")
class PostgreSqlOutboxAdminTest extends AbstractOutboxAdminTest {

    @Override
    protected TestDatabase database() {
        return TestDatabases.postgresql();
    }
}
