package org.eeoutbox.jdbc;

import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;
import org.junit.jupiter.api.DisplayName;

@DisplayName("[mysql] per-key ordering contract")
class MySqlOrderingTest extends AbstractOrderingTest {

    @Override
    protected TestDatabase database() {
        return TestDatabases.mysql();
    }
}
