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
        AdminRestSettings settings = ConfiguredSettings.get();
        Method method = resource.getResourceMethod();
        Allowed allowed = method == null ? null : method.getAnnotation(Allowed.class);
        int refusal = refusal(Boolean.TRUE.equals(request.getProperty(AdminRouting.ROUTED)),
                request.getSecurityContext(), settings, allowed);
        if (refusal != 0) {
            request.abortWith(AdminJson.error(refusal, null, switch (refusal) {
                case 401 -> "Authentication required";
                case 403 -> "This needs the role " + (allowed != null && allowed.value() == Allowed.Role.VIEWER
                        ? settings.viewerRole() + " or " : "") + settings.operatorRole();
                default -> "Not found";
            }));
        }
    }

    /**
     * Returns the status that refuses the request, or 0 to let it through: 404 when not
     * {@code routed}, 401 without an authenticated caller, 403 when the method has no
     * {@link Allowed} or the caller lacks its role.
     */
    static int refusal(boolean routed, SecurityContext security, AdminRestSettings settings, Allowed allowed) {
        if (!routed || !settings.enabled()) {
            return 404;
        }
        if (security == null || security.getUserPrincipal() == null) {
            return 401;
        }
        return allowed != null && permits(settings, security, allowed.value()) ? 0 : 403;
    }

    /** Whether the caller of {@code security} has {@code role}'s rights under {@code settings}. */
    static boolean permits(AdminRestSettings settings, SecurityContext security, Allowed.Role role) {
        boolean operator = settings.operatorRole() != null && security.isUserInRole(settings.operatorRole());
        return role == Allowed.Role.OPERATOR ? operator
                : operator || settings.viewerRole() != null && security.isUserInRole(settings.viewerRole());
    }
}
