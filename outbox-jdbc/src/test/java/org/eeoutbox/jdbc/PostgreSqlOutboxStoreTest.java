package org.eeoutbox.jdbc;

import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;
import org.junit.jupiter.api.DisplayName;

@DisplayName("[postgresql] outbox store contract")
class PostgreSqlOutboxStoreTest extends AbstractOutboxStoreTest {

    @Override
    protected TestDatabase database() {
        return TestDatabases.postgresql();
    }

    @Override
    protected String nonUtcSessionZoneSql() {
        return "SET LOCAL TIME ZONE 'America/Los_Angeles'";
    }
}
