/**
 * The framework-free engine: the publisher, the processor and the purger over an
 * {@link org.eeoutbox.spi.OutboxStore}. For runtimes that embed the outbox (Java SE, tests, the
 * benchmarks); inside a Jakarta EE server {@code outbox-cdi} assembles it and applications never
 * touch it.
 */
package org.eeoutbox.engine;
