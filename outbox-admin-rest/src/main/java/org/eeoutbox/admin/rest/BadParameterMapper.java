package org.eeoutbox.admin.rest;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Answers a {@link BadParameter} with 400 and its JSON error; maps only this module's own exception. */
@Provider
public class BadParameterMapper implements ExceptionMapper<BadParameter> {

    @Override
    public Response toResponse(BadParameter exception) {
        return AdminJson.error(400, exception.parameter(), exception.getMessage());
    }
}
