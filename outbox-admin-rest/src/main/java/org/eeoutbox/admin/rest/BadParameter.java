package org.eeoutbox.admin.rest;

/**
 * A request parameter refused: answered 400 by {@link BadParameterMapper} with the parameter's
 * name and why, before anything ran.
 */
final class BadParameter extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String parameter;

    /**
     * @param parameter the parameter's name, or {@code null} when the problem is not one
     *                  parameter's
     * @param message   the whole sentence, naming the parameter
     */
    BadParameter(String parameter, String message) {
        super(message, null, false, false);
        this.parameter = parameter;
    }

    /** The parameter's name, or {@code null}. */
    String parameter() {
        return parameter;
    }
}
