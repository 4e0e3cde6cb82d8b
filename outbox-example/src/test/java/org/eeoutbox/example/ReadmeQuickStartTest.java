package org.eeoutbox.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.eeoutbox.DeliveryInfo;
import org.eeoutbox.OutboxMessage;
import org.junit.jupiter.api.Test;

/**
 * The README's quick start is this module's code: its Java block is {@link OrderWebhook} between
 * the marker lines, character for character, and its properties are lines of the example's
 * {@code microprofile-config.properties}. A README block is the fenced block that follows a
 * {@code <!-- quick-start: PATH -->} comment, PATH relative to the repository root.
 */
class ReadmeQuickStartTest {

    private static final String JAVA = "outbox-example/src/main/java/org/eeoutbox/example/OrderWebhook.java";
    private static final String PROPERTIES = "outbox-example/src/main/resources/META-INF/microprofile-config.properties";

    @Test
    void theReadmesJavaIsOrderWebhookBetweenItsMarkers() throws IOException {
        assertEquals(DocBlocks.between(JAVA, "// README quick start: begin", "// README quick start: end"),
                String.join("\n", readmeBlock(JAVA)),
                "README.md's quick start differs from " + JAVA + ": copy the file's text between the markers");
    }

    @Test
    void theReadmesPropertiesAreTheExamplesProperties() throws IOException {
        List<String> file = Files.readAllLines(DocBlocks.ROOT.resolve(PROPERTIES));
        for (String line : readmeBlock(PROPERTIES)) {
            assertTrue(file.contains(line), "README.md's quick start sets '" + line + "', which " + PROPERTIES
                    + " does not");
        }
    }

    @Test
    void placeWritesTheOrderThenPublishesOrderCreatedToTheWebhooksService() throws Exception {
        List<String> calls = new ArrayList<>();
        UUID id = UUID.randomUUID();
        OrderWebhook service = new OrderWebhook();
        service.orders = new OrderRepository() {
            @Override
            public void insert(Order order) {
                calls.add("insert " + order.id());
            }
        };
        service.outbox = (OutboxMessage message, DeliveryInfo delivery) -> {
            calls.add("publish " + message.messageType() + " " + message.payload() + " " + delivery.deliveryType()
                    + " " + delivery.metadataJson());
            return id;
        };

        UUID published = service.place(new Order("o-1", "c-1", new BigDecimal("19.90"), Instant.now()));

        assertEquals(id, published);
        assertEquals(2, calls.size(), calls.toString());
        assertEquals("insert o-1", calls.get(0));
        assertTrue(calls.get(1).startsWith("publish order.created {\"id\":\"o-1\"} http {"), calls.get(1));
        assertTrue(calls.get(1).contains("\"service\":\"webhooks\"") && calls.get(1).contains("\"/hooks/orders\""),
                calls.get(1));
    }

    /** The lines of the fenced block after {@code <!-- quick-start: path -->} in README.md. */
    private static List<String> readmeBlock(String path) throws IOException {
        return DocBlocks.fencedBlockAfter("README.md", "<!-- quick-start: " + path + " -->");
    }
}
