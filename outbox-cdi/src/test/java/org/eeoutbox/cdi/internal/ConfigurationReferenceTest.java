package org.eeoutbox.cdi.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.config.Property;
import org.junit.jupiter.api.Test;

/**
 * The configuration reference in {@code docs/configuration.md} is the registry's: this test fails
 * when a property is declared, renamed, re-ranged or re-described without the table following. The
 * table the registry gives is written to {@code target/configuration-table.md} to paste in.
 */
class ConfigurationReferenceTest {

    private static final Path DOC = Path.of("..", "docs", "configuration.md");
    private static final String START = "<!-- properties:start -->";
    private static final String END = "<!-- properties:end -->";

    @Test
    void docsTableIsTheRegistrys() throws IOException {
        List<Property<?>> properties = DeploymentConfiguration.read(Configuration.of(Map.of()),
                getClass().getClassLoader(), new ApplicationBeans()).properties();
        String expected = table(properties);
        Files.writeString(Path.of("target", "configuration-table.md"), expected);

        String doc = Files.readString(DOC);
        String documented = doc.substring(doc.indexOf(START) + START.length(), doc.indexOf(END)).strip();

        assertEquals(expected.strip(), documented, "docs/configuration.md differs from the registry; the table the "
                + "registry gives is in outbox-cdi/target/configuration-table.md");
    }

    @Test
    void theBuiltInTransportsAreOnTheTestClassPath() {
        Transports transports = Transports.load(getClass().getClassLoader());

        assertEquals(List.of("feed", "http", "kafka"), transports.deliveryTypes().stream().sorted().toList());
    }

    static String table(List<Property<?>> properties) {
        return "| Property | Default | Accepted | Meaning |\n|---|---|---|---|\n" + properties.stream()
                .map(property -> "| `" + property.name() + "` | "
                        + property.defaultText().map(text -> "`" + text + "`")
                                .orElse(property.required() ? "(required)" : "(unset)")
                        + " | " + property.accepted() + " | " + property.description() + " |")
                .collect(Collectors.joining("\n")) + "\n";
    }
}
