package org.eeoutbox.example;

import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.sql.SQLException;
import java.util.UUID;

/**
 * {@code POST /orders} places an order (201 with its {@code Location}); {@code GET /orders/{id}}
 * returns it (or 404); {@code POST /orders/{id}/steps/{step}} publishes a step of the order's life
 * with the order as ordering key (202 with the outbox entry's id, see
 * {@link OrderService#publishStep}). Errors are JSON objects {@code {"error": "..."}}.
 */
@Path("orders")
@Produces(MediaType.APPLICATION_JSON)
public class OrdersResource {

    @Inject
    OrderService service;

    @Inject
    OrderRepository orders;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(NewOrder request, @Context UriInfo uri) throws SQLException {
        String problem = request == null ? "the body must be a JSON object" : request.problem();
        if (problem != null) {
            return error(Response.Status.BAD_REQUEST, problem);
        }
        Order order = service.place(request);
        return Response.created(uri.getAbsolutePathBuilder().path(order.id()).build()).entity(order).build();
    }

    @GET
    @Path("{id}")
    public Response get(@PathParam("id") String id) throws SQLException {
        return orders.find(id).map(order -> Response.ok(order).build())
                .orElseGet(() -> error(Response.Status.NOT_FOUND, "no order " + id));
    }

    @POST
    @Path("{id}/steps/{step}")
    public Response step(@PathParam("id") String id, @PathParam("step") String step) {
        if (id.length() > 200 || step.length() > 100) {
            return error(Response.Status.BAD_REQUEST, "the order id must be at most 200 characters, the step 100");
        }
        UUID entry = service.publishStep(id, step);
        return Response.accepted(Json.createObjectBuilder().add("outboxId", entry.toString()).build()).build();
    }

    private static Response error(Response.Status status, String message) {
        JsonObject body = Json.createObjectBuilder().add("error", message).build();
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(body).build();
    }
}
