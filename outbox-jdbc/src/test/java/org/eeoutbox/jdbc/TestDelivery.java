package org.eeoutbox.jdbc;

import org.eeoutbox.DeliveryInfo;

/** A delivery of the given type and metadata; {@code {"test":true}} unless given. */
record TestDelivery(String deliveryType, String metadataJson) implements DeliveryInfo {

    TestDelivery(String deliveryType) {
        this(deliveryType, "{\"test\":true}");
    }
}
