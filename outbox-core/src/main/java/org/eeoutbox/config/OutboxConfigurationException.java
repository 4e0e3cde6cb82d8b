package org.eeoutbox.config;

import java.util.List;

/**
 * The outbox's configuration is invalid; thrown at deployment, which then fails. The message
 * lists every problem, each naming the property, its value and what is accepted.
 */
public class OutboxConfigurationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    public OutboxConfigurationException(List<String> problems) {
        super("Invalid outbox configuration:\n  " + String.join("\n  ", problems));
        this.problems = List.copyOf(problems);
    }

    /** Returns the problems, one sentence each. */
    public List<String> problems() {
        return problems;
    }
}
