package org.eeoutbox.example;

import jakarta.json.Json;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * Answers {@code 400} with a JSON error when a request body cannot be read as JSON (the JSON-B
 * reader throws {@link ProcessingException}), rather than the server's default {@code 500}.
 */
@Provider
public class UnreadableBodyMapper implements ExceptionMapper<ProcessingException> {

    @Override
    public Response toResponse(ProcessingException exception) {
        return Response.status(Response.Status.BAD_REQUEST).type(MediaType.APPLICATION_JSON)
                .entity(Json.createObjectBuilder()
                        .add("error", "the body must be a JSON object such as {\"customer\": \"c-42\", \"amount\": 19.90}")
                        .build())
                .build();
    }
}
