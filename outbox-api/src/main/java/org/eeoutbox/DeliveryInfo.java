package org.eeoutbox;

/**
 * Where and how an entry is delivered: a delivery type, which selects the {@link MessageDeliverer},
 * and metadata that deliverer understands, stored with the entry as a JSON document.
 *
 * <p>Transports provide implementations (for example an HTTP or a Kafka delivery built
 * fluently). The interface is open so that an application can add its own transport: implement
 * it together with a {@link MessageDeliverer} of the same delivery type.
 *
 * <p>Implementations should be immutable; both methods are called once per publish.
 */
public interface DeliveryInfo {

    /**
     * Returns the delivery type, for example {@code "http"}; never {@code null} or blank. At most
     * 64 characters.
     */
    String deliveryType();

    /**
     * Returns the metadata as the text of a JSON object, for example
     * {@code {"service":"billing","path":"/hooks"}}; never {@code null}. The deliverer of the same
     * type reads it back from {@link OutboxEntry#deliveryMetadata()}.
     */
    String metadataJson();

    /**
     * Returns the ordering key the delivery itself imposes, or {@code null} (the default): the key
     * comes from {@link OutboxMessage#orderingKey()}. A feed's channel is such a key: its entries
     * are numbered in commit order per channel. A message carrying another ordering key is refused.
     */
    default String orderingKey() {
        return null;
    }
}
