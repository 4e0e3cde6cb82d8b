package org.eeoutbox.admin.rest;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Which of the two roles a resource method needs; {@link AdminSecurityFilter} enforces it. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@interface Allowed {

    /** The role the caller needs. */
    Role value();

    /** The admin API's roles; the names are configured. */
    enum Role {
        /** Reads: the viewer role or the operator role. */
        VIEWER,
        /** Payloads and changes: the operator role only. */
        OPERATOR
    }
}
