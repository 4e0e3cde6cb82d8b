/**
 * The outbox runtime's internals: not API. Types here are public only because CDI, the servlet
 * container or {@code outbox-ejb} need to reach them; they change without notice. Applications use
 * {@link org.eeoutbox.OutboxPublisher} and the {@code outbox.*} properties.
 */
package org.eeoutbox.cdi.internal;
