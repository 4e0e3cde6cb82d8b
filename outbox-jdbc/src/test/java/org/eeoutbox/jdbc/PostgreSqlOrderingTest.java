package org.eeoutbox.jdbc;

import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;
import org.junit.jupiter.api.DisplayName;

@DisplayName("[postgresql] per-key ordering contract")
class PostgreSqlOrderingTest extends AbstractOrderingTest {

    @Override
    protected TestDatabase database() {
        return TestDatabases.postgresql();
    }
}
