package org.eeoutbox.admin.rest;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.admin.ActionOutcome;
import org.eeoutbox.admin.BlockedKey;
import org.eeoutbox.admin.BulkResult;
import org.eeoutbox.admin.EntryDetails;
import org.eeoutbox.admin.EntryPage;
import org.eeoutbox.admin.EntryView;
import org.eeoutbox.admin.FailedAttempt;
import org.eeoutbox.admin.OutboxOverview;
import org.eeoutbox.admin.Pause;

/**
 * The admin API's JSON, built with JSON-P: instants as ISO-8601 text, durations as ISO-8601
 * ({@code PT1M30S}); absent values ({@code null}) left out. Stateless.
 */
final class AdminJson {

    private AdminJson() {
    }

    /** An error response: {@code {"status":..., "parameter":..., "message":...}}, {@code parameter} left out when {@code null}. */
    static Response error(int status, String parameter, String message) {
        JsonObjectBuilder body = Json.createObjectBuilder().add("status", status);
        put(body, "parameter", parameter);
        body.add("message", message);
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(body.build()).build();
    }

    static JsonObject page(EntryPage page) {
        JsonArrayBuilder entries = Json.createArrayBuilder();
        page.entries().forEach(entry -> entries.add(entry(entry)));
        JsonObjectBuilder body = Json.createObjectBuilder().add("entries", entries);
        put(body, "nextPage", page.nextPage());
        return body.build();
    }

    /** The entry and its history; the payload only when {@code withPayload}. */
    static JsonObject details(EntryDetails details, boolean withPayload) {
        JsonObjectBuilder entry = Json.createObjectBuilder(entry(details.entry()));
        if (!withPayload) {
            entry.remove("payload");
        }
        JsonArrayBuilder failures = Json.createArrayBuilder();
        for (FailedAttempt failure : details.failures()) {
            JsonObjectBuilder attempt = Json.createObjectBuilder().add("attempt", failure.attempt());
            put(attempt, "attemptedAt", failure.attemptedAt());
            attempt.add("permanent", failure.permanent());
            put(attempt, "error", failure.error());
            failures.add(attempt);
        }
        return entry.add("failures", failures).build();
    }

    static JsonObject entry(EntryView entry) {
        JsonObjectBuilder body = Json.createObjectBuilder().add("id", entry.id().toString());
        put(body, "messageType", entry.messageType());
        put(body, "deliveryType", entry.deliveryType());
        put(body, "deliveryMetadata", entry.deliveryMetadata());
        put(body, "deduplicationKey", entry.deduplicationKey());
        put(body, "status", entry.status() == null ? null : entry.status().name());
        body.add("attempts", entry.attempts());
        put(body, "nextAttemptAt", entry.nextAttemptAt());
        put(body, "createdAt", entry.createdAt());
        put(body, "updatedAt", entry.updatedAt());
        put(body, "lastAttemptAt", entry.lastAttemptAt());
        put(body, "lastError", entry.lastError());
        put(body, "deliveredAt", entry.deliveredAt());
        put(body, "payload", entry.payload());
        return body.build();
    }

    static JsonObject outcome(UUID id, ActionOutcome outcome) {
        return Json.createObjectBuilder().add("id", id.toString()).add("outcome", outcome.name()).build();
    }

    static JsonObject bulk(BulkResult result) {
        return Json.createObjectBuilder().add("matched", result.matched()).add("changed", result.changed())
                .add("dryRun", result.dryRun()).build();
    }

    static JsonObject overview(OutboxOverview overview) {
        JsonObjectBuilder counts = Json.createObjectBuilder();
        for (Map.Entry<OutboxStatus, Map<String, Long>> status : overview.counts().entrySet()) {
            JsonObjectBuilder perType = Json.createObjectBuilder();
            status.getValue().forEach(perType::add);
            counts.add(status.getKey().name(), perType);
        }
        return Json.createObjectBuilder().add("counts", counts)
                .add("oldestPendingAge", overview.oldestPendingAge().toString()).add("stuck", overview.stuck())
                .add("paused", paused(overview.paused())).build();
    }

    static JsonArrayBuilder paused(List<Pause> paused) {
        JsonArrayBuilder array = Json.createArrayBuilder();
        for (Pause pause : paused) {
            JsonObjectBuilder item = Json.createObjectBuilder().add("deliveryType", pause.deliveryType());
            put(item, "pausedAt", pause.pausedAt());
            put(item, "pausedBy", pause.pausedBy());
            array.add(item);
        }
        return array;
    }

    static JsonArrayBuilder blockedKeys(List<BlockedKey> keys) {
        JsonArrayBuilder array = Json.createArrayBuilder();
        for (BlockedKey key : keys) {
            JsonObjectBuilder item = Json.createObjectBuilder().add("orderingKey", key.orderingKey())
                    .add("headId", key.headId().toString());
            put(item, "failedAt", key.failedAt());
            put(item, "lastError", key.lastError());
            array.add(item);
        }
        return array;
    }

    private static void put(JsonObjectBuilder body, String name, String value) {
        if (value != null) {
            body.add(name, value);
        }
    }

    private static void put(JsonObjectBuilder body, String name, Instant value) {
        if (value != null) {
            body.add(name, value.toString());
        }
    }
}
