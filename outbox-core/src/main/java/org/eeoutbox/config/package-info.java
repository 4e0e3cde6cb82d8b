/**
 * The configuration registry: every outbox property is declared once as a
 * {@link org.eeoutbox.config.Property} (name, default, accepted values, meaning) and read through a
 * {@link org.eeoutbox.config.Configuration}, which reports every bad value at once. Runtimes and
 * transports use these types; applications only set the properties.
 */
package org.eeoutbox.config;
