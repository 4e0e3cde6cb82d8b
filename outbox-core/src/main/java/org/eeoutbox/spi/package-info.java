/**
 * Service provider interfaces for integrators: a store ({@link org.eeoutbox.spi.OutboxStore}) with
 * its transactions ({@link org.eeoutbox.spi.TransactionRunner}), and a transport that plugs into
 * the runtime ({@link org.eeoutbox.spi.TransportProvider}, found with {@link java.util.ServiceLoader}).
 */
package org.eeoutbox.spi;
