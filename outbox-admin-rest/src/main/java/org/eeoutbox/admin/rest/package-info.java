/**
 * The admin REST API (module {@code outbox-admin-rest}): {@link org.eeoutbox.admin.OutboxAdmin}
 * as JSON under {@code outbox.admin.rest.path}, off unless {@code outbox.admin.rest.enabled=true},
 * guarded by its own role filter (viewer and operator roles, both required). The endpoints,
 * roles and {@code curl} examples are in {@code docs/admin-api.md}.
 */
package org.eeoutbox.admin.rest;
