package org.eeoutbox.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.eeoutbox.DeliveryInfo;
import org.eeoutbox.OutboxMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Java examples of docs/ are compiled files of this module's test sources: each page shows,
 * character for character, the file's text between its marker lines, in the fenced block after
 * {@code <!-- example: PATH -->}.
 */
class DocExamplesTest {

    private static final String SOURCES = "outbox-example/src/test/java/org/eeoutbox/example/";

    @ParameterizedTest
    @CsvSource({"docs/transports.md, SmsDeliverer.java", "docs/guarantees.md, InvoiceEvents.java",
            "docs/ordering.md, OrderLifecycle.java"})
    void thePageShowsTheFileBetweenItsMarkers(String page, String file) throws IOException {
        String path = SOURCES + file;
        assertEquals(DocBlocks.between(path, "// " + page + " example: begin", "// " + page + " example: end"),
                String.join("\n", DocBlocks.fencedBlockAfter(page, "<!-- example: " + path + " -->")),
                page + "'s example differs from " + path + ": copy the file's text between the markers");
    }

    @Test
    void invoiceEventsGivesEachDestinationItsOwnDeduplicationKey() {
        List<String> published = new ArrayList<>();
        InvoiceEvents events = new InvoiceEvents();
        events.outbox = (OutboxMessage message, DeliveryInfo delivery) -> {
            published.add(message.deduplicationKey() + " " + delivery.deliveryType());
            return UUID.randomUUID();
        };

        events.issued("42", "{\"id\":\"42\"}");

        assertEquals(List.of("invoice-42:http http", "invoice-42:kafka kafka"), published);
    }

    @Test
    void orderLifecycleKeysEveryStepByItsOrder() {
        List<String> published = new ArrayList<>();
        OrderLifecycle lifecycle = new OrderLifecycle();
        lifecycle.outbox = (OutboxMessage message, DeliveryInfo delivery) -> {
            published.add(message.messageType() + " " + message.orderingKey());
            return UUID.randomUUID();
        };

        lifecycle.changed("42", "order.created", "{}");
        lifecycle.changed("42", "order.paid", "{}");

        assertEquals(List.of("order.created order-42", "order.paid order-42"), published);
    }
}
