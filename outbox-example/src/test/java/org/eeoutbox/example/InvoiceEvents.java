package org.eeoutbox.example;

// docs/guarantees.md example: begin
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxPublisher;
import org.eeoutbox.http.HttpDelivery;
import org.eeoutbox.kafka.KafkaDelivery;

@ApplicationScoped
public class InvoiceEvents {

    @Inject OutboxPublisher outbox;

    @Transactional
    public void issued(String invoiceId, String json) {
        String key = "invoice-" + invoiceId;   // one event, two deliveries: a key for each
        outbox.publish(new OutboxMessage("invoice.issued", json).withDeduplicationKey(key + ":http"),
                HttpDelivery.to("billing").path("/hooks/invoices").build());
        outbox.publish(new OutboxMessage("invoice.issued", json).withDeduplicationKey(key + ":kafka"),
                KafkaDelivery.topic("invoices").key(invoiceId).build());
    }
}
// docs/guarantees.md example: end
