package org.eeoutbox.jdbc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The migration paths the documentation gives (to read, to extract with {@code unzip -p}, to
 * point Flyway or Liquibase at) are the resources this jar ships, so a renamed or moved migration
 * fails the build instead of a user's first {@code psql}.
 */
class DocumentedMigrationsTest {

    private static final Path ROOT = Path.of("..");
    private static final Pattern MIGRATION = Pattern.compile("org/eeoutbox/jdbc/schema/[A-Za-z0-9_./-]+\\.sql");

    @Test
    void everyMigrationPathInTheDocsIsAResourceOfThisJar() throws IOException {
        List<String> paths = new ArrayList<>();
        for (Path doc : docs()) {
            Matcher matcher = MIGRATION.matcher(Files.readString(doc));
            while (matcher.find()) {
                paths.add(matcher.group());
                assertNotNull(getClass().getClassLoader().getResource(matcher.group()),
                        doc + " names " + matcher.group() + ", which outbox-jdbc does not ship");
            }
        }
        assertFalse(paths.isEmpty(), "no documented migration path found");
    }

    @Test
    void operationsGivesTheMigrationOfEachDialect() throws IOException {
        String operations = Files.readString(ROOT.resolve("docs/operations.md"));
        for (SqlDialect dialect : List.of(new PostgreSqlDialect(), new MySqlDialect(), new MariaDbDialect())) {
            for (int version = 1; version <= OutboxSchema.VERSION; version++) {
                String resource = dialect.migrationResource(version);
                assertTrue(operations.contains(resource), "docs/operations.md should give " + resource);
            }
        }
    }

    private static List<Path> docs() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            files.filter(file -> file.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs;
    }
}
