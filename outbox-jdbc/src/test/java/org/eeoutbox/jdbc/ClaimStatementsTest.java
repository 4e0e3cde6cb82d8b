package org.eeoutbox.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.eeoutbox.spi.HeadFailurePolicy;
import org.junit.jupiter.api.Test;

/** The claim texts a store keeps: the dialect's text for every shape, built once. */
class ClaimStatementsTest {

    private final SqlDialect dialect = SqlDialect.choose("PostgreSQL", "17.6", 17, 6);
    private final ClaimStatements claims = new ClaimStatements(dialect, HeadFailurePolicy.SKIP);

    @Test
    void everyShapeGetsTheDialectsTextWithItsColumnsAndPolicy() {
        for (int typeCount : new int[] {1, 3}) {
            for (boolean fromDueTime : new boolean[] {false, true}) {
                assertEquals(dialect.claimSql(typeCount, dialect.claimColumns(), HeadFailurePolicy.SKIP, fromDueTime, 10),
                        claims.claimSql(typeCount, false, fromDueTime, 10));
                assertEquals(dialect.claimSql(typeCount, dialect.claimColumns() + ", lease_token",
                        HeadFailurePolicy.SKIP, fromDueTime, 10), claims.claimSql(typeCount, true, fromDueTime, 10));
            }
        }
    }

    @Test
    void aShapeClaimedAgainGetsTheTextBuiltTheFirstTime() {
        assertSame(claims.claimSql(2, false, true, 100), claims.claimSql(2, false, true, 100));
    }

    @Test
    void shapesBeyondTheKeptOnesAreStillBuiltRight() {
        for (int limit = 1; limit <= 200; limit++) {
            assertEquals(dialect.claimSql(1, dialect.claimColumns(), HeadFailurePolicy.SKIP, false, limit),
                    claims.claimSql(1, false, false, limit), "limit " + limit);
        }
    }
}
