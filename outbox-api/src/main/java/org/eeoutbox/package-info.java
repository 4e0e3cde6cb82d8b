/**
 * What applications and transport authors use, and all they need: {@link org.eeoutbox.OutboxPublisher}
 * with {@link org.eeoutbox.OutboxMessage} and a {@link org.eeoutbox.DeliveryInfo} to publish;
 * {@link org.eeoutbox.MessageDeliverer}, {@link org.eeoutbox.OutboxEntry} and
 * {@link org.eeoutbox.DeliveryResult} to deliver; {@link org.eeoutbox.admin} to operate it. Stable
 * API; no dependencies.
 */
package org.eeoutbox;
