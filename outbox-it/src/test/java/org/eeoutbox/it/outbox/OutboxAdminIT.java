package org.eeoutbox.it.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.admin.ActionOutcome;
import org.eeoutbox.admin.AdminAction;
import org.eeoutbox.admin.EntryFilter;
import org.eeoutbox.admin.EntryView;
import org.eeoutbox.admin.OutboxAdmin;
import org.eeoutbox.admin.PageRequest;
import org.eeoutbox.it.app.AdminActions;
import org.eeoutbox.it.app.Orders;
import org.eeoutbox.it.app.TestApps;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operations API inside the server: the {@link OutboxAdmin} bean, its container transactions,
 * the pause honoured by the running processor, and the audit events.
 */
@ExtendWith(ArquillianExtension.class)
class OutboxAdminIT {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @Deployment
    static WebArchive deployment() {
        return TestApps.war("admin", Map.of()).addClass(AdminActions.class);
    }

    @Inject
    Orders orders;

    @Inject
    OutboxAdmin admin;

    @Inject
    AdminActions actions;

    @BeforeEach
    void createTable() throws Exception {
        orders.createTable();
    }

    @Test
    void aPausedEntryWaitsIsDiscardedReplayedAndDeliveredOnceResumed() throws Exception {
        String order = "admin-" + UUID.randomUUID();
        admin.pause("http");
        UUID id;
        try {
            id = orders.place(order, "http", "/admin/" + order);
            Thread.sleep(1_000); // five polls of 200 ms
            EntryView waiting = admin.get(id).orElseThrow().entry();
            assertEquals(OutboxStatus.PENDING, waiting.status(), "a paused type is not delivered");
            assertEquals(0, waiting.attempts());
            assertEquals(List.of("http"), admin.paused().stream().map(p -> p.deliveryType()).toList());

            assertEquals(ActionOutcome.DONE, admin.discard(id));
            assertEquals(OutboxStatus.DISCARDED, admin.get(id).orElseThrow().entry().status());
            assertEquals(ActionOutcome.DONE, admin.replay(id));
            assertEquals(ActionOutcome.WRONG_STATUS, admin.replay(id));
        } finally {
            admin.resume("http");
        }

        long deadline = System.nanoTime() + PATIENCE.toNanos();
        OutboxStatus status;
        do {
            Thread.sleep(100);
            status = admin.get(id).orElseThrow().entry().status();
        } while (status != OutboxStatus.DELIVERED && System.nanoTime() < deadline);
        assertEquals(OutboxStatus.DELIVERED, status, "delivered once resumed");

        List<EntryView> listed = admin.list(EntryFilter.ANY.withStatuses(OutboxStatus.DELIVERED),
                new PageRequest(null, 10, false)).entries();
        assertTrue(listed.stream().anyMatch(entry -> entry.id().equals(id)), "newest first: on the first page");
        List<AdminAction> recorded = actions.recorded();
        assertEquals(List.of("pause", "discard", "replay", "resume"), recorded.stream().map(AdminAction::action).toList());
        assertEquals(id.toString(), recorded.get(1).target());
        assertEquals("unknown", recorded.get(0).caller(), "no one is authenticated");
    }
}
