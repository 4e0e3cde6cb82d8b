package org.eeoutbox.admin.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.ws.rs.core.SecurityContext;
import java.security.Principal;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AdminSecurityFilterTest {

    private static final AdminRestSettings ON = new AdminRestSettings(true, "outbox-admin", "ops-view", "ops-run");

    @Test
    void refusesWhatIsNotRoutedOrNotEnabled() throws Exception {
        assertEquals(404, AdminSecurityFilter.refusal(false, caller("ops-run"), ON, allowed("read")));
        assertEquals(404, AdminSecurityFilter.refusal(true, caller("ops-run"), AdminRestSettings.DISABLED,
                allowed("read")));
    }

    @Test
    void refusesAnonymousCallersWith401() throws Exception {
        assertEquals(401, AdminSecurityFilter.refusal(true, anonymous(), ON, allowed("read")));
        assertEquals(401, AdminSecurityFilter.refusal(true, null, ON, allowed("read")));
    }

    @Test
    void theViewerReadsButDoesNotChange() throws Exception {
        assertEquals(0, AdminSecurityFilter.refusal(true, caller("ops-view"), ON, allowed("read")));
        assertEquals(403, AdminSecurityFilter.refusal(true, caller("ops-view"), ON, allowed("change")));
    }

    @Test
    void theOperatorDoesBoth() throws Exception {
        assertEquals(0, AdminSecurityFilter.refusal(true, caller("ops-run"), ON, allowed("read")));
        assertEquals(0, AdminSecurityFilter.refusal(true, caller("ops-run"), ON, allowed("change")));
    }

    @Test
    void anAuthenticatedCallerWithoutEitherRoleOrAMethodWithoutAllowedIsRefused() throws Exception {
        assertEquals(403, AdminSecurityFilter.refusal(true, caller("staff"), ON, allowed("read")));
        assertEquals(403, AdminSecurityFilter.refusal(true, caller("ops-run"), ON, null));
    }

    @Test
    void everyEndpointOfTheResourceDeclaresItsRole() {
        for (var method : OutboxAdminResource.class.getDeclaredMethods()) {
            if (java.lang.reflect.Modifier.isPublic(method.getModifiers())) {
                assertEquals(true, method.isAnnotationPresent(Allowed.class), method.getName());
            }
        }
    }

    private static Allowed allowed(String methodName) throws NoSuchMethodException {
        return Endpoints.class.getDeclaredMethod(methodName).getAnnotation(Allowed.class);
    }

    private static final class Endpoints {
        @Allowed(Allowed.Role.VIEWER)
        void read() {
        }

        @Allowed(Allowed.Role.OPERATOR)
        void change() {
        }
    }

    private static SecurityContext anonymous() {
        return context(null, Set.of());
    }

    private static SecurityContext caller(String role) {
        return context(() -> "someone", Set.of(role));
    }

    private static SecurityContext context(Principal principal, Set<String> roles) {
        return new SecurityContext() {
            @Override
            public Principal getUserPrincipal() {
                return principal;
            }

            @Override
            public boolean isUserInRole(String role) {
                return principal != null && roles.contains(role);
            }

            @Override
            public boolean isSecure() {
                return false;
            }

            @Override
            public String getAuthenticationScheme() {
                return principal == null ? null : BASIC_AUTH;
            }
        };
    }
}
