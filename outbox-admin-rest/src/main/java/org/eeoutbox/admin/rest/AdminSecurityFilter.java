package org.eeoutbox.admin.rest;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.ext.Provider;
import java.lang.reflect.Method;

/**
 * The admin API's own access check, through the container's {@link SecurityContext} (not
 * {@code @RolesAllowed}, which not every JAX-RS implementation enforces by default). Fails closed:
 * a request not routed by {@link AdminRouting} is answered 404, one without an authenticated
 * caller 401, one whose caller lacks the method's {@link Allowed} role 403, and a method without
 * {@link Allowed} is never served. The operator role includes the viewer's rights.
 *
 * <p>Bound to the admin resource only ({@link AdminApi}). Thread-safe: the injected
 * {@link ResourceInfo} is the container's per-request proxy.
 */
@Provider
@AdminApi
@Priority(Priorities.AUTHORIZATION)
public class AdminSecurityFilter implements ContainerRequestFilter {

    @Context
    ResourceInfo resource;

    @Override
    public void filter(ContainerRequestContext request) {
        if (!Boolean.TRUE.equals(request.getProperty(AdminRouting.ROUTED))) {
            request.abortWith(AdminJson.error(404, null, "Not found"));
            return;
        }
        AdminRestSettings settings = ConfiguredSettings.get();
        SecurityContext security = request.getSecurityContext();
        if (security == null || security.getUserPrincipal() == null) {
            request.abortWith(AdminJson.error(401, null, "Authentication required"));
            return;
        }
        Method method = resource.getResourceMethod();
        Allowed allowed = method == null ? null : method.getAnnotation(Allowed.class);
        if (allowed == null || !permits(settings, security, allowed.value())) {
            boolean needsOperator = allowed == null || allowed.value() == Allowed.Role.OPERATOR;
            request.abortWith(AdminJson.error(403, null, "This needs the role "
                    + (needsOperator ? settings.operatorRole() : settings.viewerRole() + " or " + settings.operatorRole())));
        }
    }

    /** Whether the caller of {@code security} has {@code role}'s rights under {@code settings}. */
    static boolean permits(AdminRestSettings settings, SecurityContext security, Allowed.Role role) {
        boolean operator = settings.operatorRole() != null && security.isUserInRole(settings.operatorRole());
        return role == Allowed.Role.OPERATOR ? operator
                : operator || settings.viewerRole() != null && security.isUserInRole(settings.viewerRole());
    }
}
