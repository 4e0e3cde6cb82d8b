package org.eeoutbox.it.app;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Lets {@code @RunAsClient} tests drive the application: place orders, each in its own
 * transaction, and read an order's outbox state.
 */
@Path("orders")
public class OrdersResource {

    @Inject
    Orders orders;

    /** Places {@code count} orders named {@code prefix-0…}; answers their outbox ids, one per line. */
    @POST
    @Produces(MediaType.TEXT_PLAIN)
    public String place(@QueryParam("prefix") String prefix, @QueryParam("count") int count,
                        @QueryParam("transport") String transport, @QueryParam("path") String path)
            throws SQLException {
        orders.createTable();
        List<String> ids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            UUID id = orders.place(prefix + "-" + i, transport, path == null ? "/orders" : path);
            ids.add(id.toString());
        }
        return String.join("\n", ids);
    }

    /**
     * Publishes steps 0 to {@code count - 1} of the aggregate {@code key} to {@code path}, one
     * transaction each, one after the other; answers their outbox ids, one per line.
     */
    @POST
    @Path("steps")
    @Produces(MediaType.TEXT_PLAIN)
    public String steps(@QueryParam("key") String key, @QueryParam("count") int count,
                        @QueryParam("path") String path) {
        List<String> ids = new ArrayList<>(count);
        for (int step = 0; step < count; step++) {
            ids.add(orders.publishStep(key, step, path).toString());
        }
        return String.join("\n", ids);
    }

    /** Answers {@code status attempts last_error} of the order's outbox entry, or 404. */
    @GET
    @Path("{orderId}/outbox")
    @Produces(MediaType.TEXT_PLAIN)
    public Response state(@PathParam("orderId") String orderId) throws SQLException {
        return orders.outboxState(orderId).map(state -> Response.ok(state).build())
                .orElse(Response.status(Response.Status.NOT_FOUND).build());
    }
}
