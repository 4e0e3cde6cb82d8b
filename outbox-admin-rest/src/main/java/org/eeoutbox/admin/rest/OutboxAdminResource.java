package org.eeoutbox.admin.rest;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.eeoutbox.admin.ActionOutcome;
import org.eeoutbox.admin.BulkRequest;
import org.eeoutbox.admin.EntryDetails;
import org.eeoutbox.admin.EntryFilter;
import org.eeoutbox.admin.OutboxAdmin;
import org.eeoutbox.admin.PageRequest;

/**
 * {@link OutboxAdmin} as JSON over HTTP, under {@code outbox.admin.rest.path} (see
 * {@link AdminRouting}); every method is guarded by {@link AdminSecurityFilter} with the role of
 * its {@link Allowed}. Answers: 400 naming the parameter for any malformed or out-of-range input
 * (nothing changed), 404 for an unknown entry, 409 when a replay or discard lost to a concurrent
 * change ({@code WRONG_STATUS}) or met a running delivery ({@code BUSY}). Each change is logged at
 * INFO with the caller and fired as an audit event by the {@code OutboxAdmin} bean itself.
 *
 * <p>Request-scoped CDI bean.
 */
@Path(OutboxAdminResource.PATH)
@AdminApi
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "outbox-admin", description = "Inspect, replay and discard outbox entries; pause delivery types")
public class OutboxAdminResource {

    /** The resource's fixed path, and the default of {@code outbox.admin.rest.path}. */
    static final String PATH = "outbox-admin";

    /** How long {@code stuckAfter} defaults to on the overview. */
    static final Duration DEFAULT_STUCK_AFTER = Duration.ofMinutes(5);

    /** The default {@code maximum} of a bulk operation. */
    static final int DEFAULT_BULK_MAXIMUM = 1000;

    private static final Duration MAX_SPREAD = Duration.ofHours(24);

    @Inject
    OutboxAdmin admin;

    @Context
    UriInfo uri;

    @Context
    SecurityContext security;

    @GET
    @Path("entries")
    @Allowed(Allowed.Role.VIEWER)
    @Operation(summary = "List entries, newest first, filtered; keyset-paginated (follow nextPage in after). "
            + "payload=true needs the operator role.")
    @APIResponse(responseCode = "200", description = "A page of entries")
    @APIResponse(responseCode = "400", description = "A malformed parameter, named in the answer")
    public Response list() {
        Parameters query = parameters(Parameters.FILTER, "size", "after", "payload");
        EntryFilter filter = query.filter();
        int size = query.integer("size", PageRequest.FIRST.size(), 1, OutboxAdmin.MAX_PAGE_SIZE);
        String after = query.single("after");
        boolean payload = query.bool("payload", false);
        if (payload && !AdminSecurityFilter.permits(ConfiguredSettings.get(), security, Allowed.Role.OPERATOR)) {
            return AdminJson.error(403, "payload", "payload=true needs the role "
                    + ConfiguredSettings.get().operatorRole());
        }
        return call(after == null ? null : "after", () -> Response.ok(AdminJson.page(admin.list(filter, new PageRequest(after, size, payload))))
                .build());
    }

    @GET
    @Path("entries/{id}")
    @Allowed(Allowed.Role.VIEWER)
    @Operation(summary = "One entry with its failure history; the payload only for the operator role")
    @APIResponse(responseCode = "200", description = "The entry")
    @APIResponse(responseCode = "404", description = "No such entry")
    public Response get(@PathParam("id") String id) {
        parameters();
        UUID entry = Parameters.id(id);
        boolean operator = AdminSecurityFilter.permits(ConfiguredSettings.get(), security, Allowed.Role.OPERATOR);
        return admin.get(entry).map((EntryDetails details) -> Response.ok(AdminJson.details(details, operator)).build())
                .orElseGet(() -> AdminJson.error(404, "id", "No entry " + entry));
    }

    @POST
    @Path("entries/{id}/replay")
    @Allowed(Allowed.Role.OPERATOR)
    @Operation(summary = "Send a FAILED or DISCARDED entry again, with the same id (x-outbox-id)")
    @APIResponse(responseCode = "200", description = "Replayed: PENDING and due now")
    @APIResponse(responseCode = "404", description = "No such entry")
    @APIResponse(responseCode = "409", description = "WRONG_STATUS (a concurrent replay won) or BUSY (being delivered)")
    public Response replay(@PathParam("id") String id) {
        parameters();
        UUID entry = Parameters.id(id);
        return outcome(entry, admin.replay(entry));
    }

    @POST
    @Path("entries/{id}/discard")
    @Allowed(Allowed.Role.OPERATOR)
    @Operation(summary = "Give up a PENDING or FAILED entry: DISCARDED, kept for audit, never delivered")
    @APIResponse(responseCode = "200", description = "Discarded")
    @APIResponse(responseCode = "404", description = "No such entry")
    @APIResponse(responseCode = "409", description = "WRONG_STATUS or BUSY")
    public Response discard(@PathParam("id") String id) {
        parameters();
        UUID entry = Parameters.id(id);
        return outcome(entry, admin.discard(entry));
    }

    @POST
    @Path("entries/replay")
    @Allowed(Allowed.Role.OPERATOR)
    @Operation(summary = "Replay every FAILED or DISCARDED entry the filter matches, due times spread over "
            + "spread; a dry run (the default) only counts; refused above maximum")
    @APIResponse(responseCode = "200", description = "matched, changed, dryRun")
    @APIResponse(responseCode = "400", description = "A malformed parameter, or more entries match than maximum")
    public Response replayAll() {
        Parameters query = parameters(Parameters.FILTER, "dryRun", "maximum", "spread");
        EntryFilter filter = query.filter();
        BulkRequest request = bulk(query, query.duration("spread", Duration.ZERO, MAX_SPREAD));
        return call(null, () -> Response.ok(AdminJson.bulk(admin.replay(filter, request))).build());
    }

    @POST
    @Path("entries/discard")
    @Allowed(Allowed.Role.OPERATOR)
    @Operation(summary = "Discard every PENDING or FAILED entry the filter matches; a dry run (the default) "
            + "only counts; refused above maximum")
    @APIResponse(responseCode = "200", description = "matched, changed, dryRun")
    @APIResponse(responseCode = "400", description = "A malformed parameter, or more entries match than maximum")
    public Response discardAll() {
        Parameters query = parameters(Parameters.FILTER, "dryRun", "maximum");
        EntryFilter filter = query.filter();
        BulkRequest request = bulk(query, Duration.ZERO);
        return call(null, () -> Response.ok(AdminJson.bulk(admin.discard(filter, request))).build());
    }

    @GET
    @Path("overview")
    @Allowed(Allowed.Role.VIEWER)
    @Operation(summary = "Counts per status and delivery type, oldest pending age, stuck entries, paused types")
    public Response overview() {
        Parameters query = parameters("stuckAfter");
        Duration stuckAfter = query.duration("stuckAfter", DEFAULT_STUCK_AFTER, Duration.ofDays(365));
        return Response.ok(AdminJson.overview(admin.overview(stuckAfter))).build();
    }

    @GET
    @Path("paused")
    @Allowed(Allowed.Role.VIEWER)
    @Operation(summary = "The paused delivery types, oldest pause first")
    public Response paused() {
        parameters();
        return Response.ok(Json.createObjectBuilder().add("paused", AdminJson.paused(admin.paused())).build()).build();
    }

    @GET
    @Path("blocked-keys")
    @Allowed(Allowed.Role.VIEWER)
    @Operation(summary = "Ordering keys held up by a FAILED head, the longest blocked first; replay or discard the "
            + "head (its id is headId) to release the key")
    public Response blockedKeys() {
        Parameters query = parameters("size");
        int size = query.integer("size", PageRequest.FIRST.size(), 1, OutboxAdmin.MAX_PAGE_SIZE);
        return Response.ok(Json.createObjectBuilder()
                .add("blockedKeys", AdminJson.blockedKeys(admin.blockedKeys(size))).build()).build();
    }

    @POST
    @Path("delivery-types/{type}/pause")
    @Allowed(Allowed.Role.OPERATOR)
    @Operation(summary = "Stop delivering this type on every instance from their next poll; publishing goes on")
    public Response pause(@PathParam("type") String type) {
        parameters();
        return call(null, () -> {
            admin.pause(type);
            return paused();
        });
    }

    @POST
    @Path("delivery-types/{type}/resume")
    @Allowed(Allowed.Role.OPERATOR)
    @Operation(summary = "Deliver this type again from the next poll")
    public Response resume(@PathParam("type") String type) {
        parameters();
        return call(null, () -> {
            admin.resume(type);
            return paused();
        });
    }

    private Parameters parameters(List<String> common, String... more) {
        List<String> known = new ArrayList<>(common);
        known.addAll(List.of(more));
        return new Parameters(uri.getQueryParameters(), known);
    }

    private Parameters parameters(String... known) {
        return parameters(List.of(), known);
    }

    private static BulkRequest bulk(Parameters query, Duration spread) {
        boolean dryRun = query.bool("dryRun", true);
        int maximum = query.integer("maximum", DEFAULT_BULK_MAXIMUM, 1, BulkRequest.MAX_MAXIMUM);
        return new BulkRequest(dryRun, maximum, spread);
    }

    /**
     * Runs an admin call, answering its {@link IllegalArgumentException} with 400 naming the
     * parameter its message starts with, else {@code fallbackParameter}.
     */
    private static Response call(String fallbackParameter, Supplier<Response> action) {
        try {
            return action.get();
        } catch (IllegalArgumentException e) {
            throw Parameters.bad(e, fallbackParameter);
        }
    }

    private static Response outcome(UUID id, ActionOutcome outcome) {
        return switch (outcome) {
            case DONE -> Response.ok(AdminJson.outcome(id, outcome)).build();
            case NOT_FOUND -> AdminJson.error(404, "id", "No entry " + id);
            case WRONG_STATUS, BUSY -> Response.status(409).type(MediaType.APPLICATION_JSON_TYPE)
                    .entity(AdminJson.outcome(id, outcome)).build();
        };
    }
}
