package org.eeoutbox.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Checks that the harness works, never how fast anything is: the statistics, and one short drain
 * comparison on the embedded PostgreSQL.
 */
class BenchSmokeTest {

    @Test
    void medianOfOddAndEvenCounts() {
        assertEquals(2.0, Runner.median(new double[] {3, 1, 2}));
        assertEquals(2.5, Runner.median(new double[] {4, 1, 3, 2}));
    }

    @Test
    void shortDrainOnPostgresqlPrintsTheLastLine() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Bench.run(Bench.Options.parse("--only=drain", "--db=postgresql", "--rows=300", "--rounds=1", "--warm-up=1",
                "--batch=100", "--workers=1,2"), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String[] lines = bytes.toString(StandardCharsets.UTF_8).strip().split("\n");
        String last = lines[lines.length - 1];
        assertTrue(last.matches("bench: drain ratio PG \\d+\\.\\d\\d, MySQL n/a, http n/a, kafka n/a; inside the server: "
                + "\\./demo .*"), last);
    }
}
