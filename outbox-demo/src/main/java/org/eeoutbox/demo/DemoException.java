package org.eeoutbox.demo;

/** A failure the demo reports to the user by its message alone (no stack trace). */
public final class DemoException extends Exception {

    private static final long serialVersionUID = 1L;

    DemoException(String message) {
        super(message);
    }

    DemoException(String message, Throwable cause) {
        super(message, cause);
    }
}
