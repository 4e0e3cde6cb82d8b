/**
 * Operating the outbox: {@link org.eeoutbox.admin.OutboxAdmin}, to inspect, replay and discard
 * entries, read their failure history, see the backlog and pause delivery, from an application's
 * own code or tools. The optional REST module exposes the same operations over HTTP. Stable API;
 * no dependencies.
 */
package org.eeoutbox.admin;
