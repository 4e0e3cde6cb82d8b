/**
 * The outbox in a Jakarta EE application: the CDI extension that adds it. Applications inject
 * {@link org.eeoutbox.OutboxPublisher} and configure {@code outbox.*} properties; everything else
 * is in {@code org.eeoutbox.cdi.internal}, which is not API.
 */
package org.eeoutbox.cdi;
