package org.eeoutbox.example;

// docs/transports.md example: begin
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import java.io.IOException;
import java.io.StringReader;
import org.eeoutbox.DeliveryInfo;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.OutboxEntry;

/** Where an SMS goes: a delivery type of its own, metadata a JSON object. */
record SmsDelivery(String phone) implements DeliveryInfo {
    public String deliveryType() { return "sms"; }
    public String metadataJson() { return Json.createObjectBuilder().add("phone", phone).build().toString(); }
}

@ApplicationScoped
public class SmsDeliverer implements MessageDeliverer {   // thread-safe: workers call it at once

    @Inject SmsGateway gateway;   // your client

    @Override
    public String deliveryType() {
        return "sms";
    }

    @Override
    public DeliveryResult deliver(OutboxEntry entry) {   // never throws: every failure is a result
        String phone;
        try {
            phone = Json.createReader(new StringReader(entry.deliveryMetadata())).readObject().getString("phone");
        } catch (RuntimeException e) {   // not JSON, not an object, no "phone": no retry can help
            return DeliveryResult.permanent("unreadable SMS metadata: " + e.getMessage());
        }
        try {
            gateway.send(phone, entry.payload(), entry.id().toString());   // the id, for deduplication
            return DeliveryResult.delivered();
        } catch (IOException | RuntimeException e) {
            return DeliveryResult.retriable("SMS gateway: " + e.getMessage());
        }
    }
}
// docs/transports.md example: end
