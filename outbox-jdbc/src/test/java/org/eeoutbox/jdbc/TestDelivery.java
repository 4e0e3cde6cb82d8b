package org.eeoutbox.jdbc;

import org.eeoutbox.DeliveryInfo;

/** A delivery of the given type with empty metadata. */
record TestDelivery(String deliveryType) implements DeliveryInfo {

    @Override
    public String metadataJson() {
        return "{\"test\":true}";
    }
}
