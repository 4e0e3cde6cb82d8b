package org.eeoutbox.it.app;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eeoutbox.admin.AdminAction;

/** Records the outbox's {@link AdminAction} events, as an application's audit trail would. */
@ApplicationScoped
public class AdminActions {

    private final List<AdminAction> recorded = new CopyOnWriteArrayList<>();

    void record(@Observes AdminAction action) {
        recorded.add(action);
    }

    /** Returns the events observed so far, oldest first. */
    public List<AdminAction> recorded() {
        return List.copyOf(recorded);
    }
}
