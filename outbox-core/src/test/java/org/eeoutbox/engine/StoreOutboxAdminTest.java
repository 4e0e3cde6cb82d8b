package org.eeoutbox.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.admin.ActionOutcome;
import org.eeoutbox.admin.AdminAction;
import org.eeoutbox.spi.OutboxAdminStore;
import org.eeoutbox.spi.TransactionRunner;
import org.junit.jupiter.api.Test;

/** The decisions of {@link StoreOutboxAdmin} that need no database: lock outcomes, the caller, the audit. */
class StoreOutboxAdminTest {

    private static final UUID ID = UUID.fromString("01890000-0000-7000-8000-000000000001");
    private static final TransactionRunner DIRECT = new TransactionRunner() {
        @Override
        public <T> T inNewTransaction(Supplier<T> work) {
            return work.get();
        }
    };

    /** Answers lock() and status() from scripts, counts the changes. */
    private static final class ScriptedStore {
        final Deque<Optional<OutboxStatus>> locks = new ArrayDeque<>();
        Optional<OutboxStatus> committed = Optional.empty();
        int changes;

        OutboxAdminStore proxy() {
            return (OutboxAdminStore) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {OutboxAdminStore.class}, (self, method, args) -> switch (method.getName()) {
                        case "lock" -> locks.removeFirst();
                        case "status" -> committed;
                        case "replay", "discard" -> ++changes;
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }
    }

    private final List<AdminAction> audited = new ArrayList<>();

    private StoreOutboxAdmin admin(ScriptedStore store, Supplier<String> caller) {
        return new StoreOutboxAdmin(store.proxy(), new InMemoryStore(), DIRECT,
                Clock.fixed(Instant.parse("2026-12-03T12:00:00Z"), ZoneOffset.UTC), caller, audited::add);
    }

    @Test
    void anEntryHeldWhilePendingIsBusyUnlessItIsFreeAtTheSecondLock() {
        ScriptedStore store = new ScriptedStore();
        store.committed = Optional.of(OutboxStatus.PENDING);
        store.locks.add(Optional.empty());
        store.locks.add(Optional.empty());
        assertEquals(ActionOutcome.BUSY, admin(store, () -> "ann").discard(ID));

        store.locks.add(Optional.empty());
        store.locks.add(Optional.of(OutboxStatus.PENDING));
        assertEquals(ActionOutcome.DONE, admin(store, () -> "ann").discard(ID), "the holder let go");

        store.locks.add(Optional.empty());
        store.locks.add(Optional.of(OutboxStatus.PENDING));
        assertEquals(ActionOutcome.WRONG_STATUS, admin(store, () -> "ann").replay(ID),
                "a concurrent replay committed PENDING");
        assertEquals(1, store.changes);
    }

    @Test
    void anEntryHeldInAnotherStatusLostToAConcurrentChangeAndAMissingOneIsNotFound() {
        ScriptedStore store = new ScriptedStore();
        store.committed = Optional.of(OutboxStatus.FAILED);
        store.locks.add(Optional.empty());
        assertEquals(ActionOutcome.WRONG_STATUS, admin(store, () -> "ann").replay(ID));

        store.committed = Optional.empty();
        store.locks.add(Optional.empty());
        assertEquals(ActionOutcome.NOT_FOUND, admin(store, () -> "ann").replay(ID));

        store.locks.add(Optional.of(OutboxStatus.DELIVERED));
        assertEquals(ActionOutcome.WRONG_STATUS, admin(store, () -> "ann").discard(ID));
        assertEquals(0, store.changes);
        assertEquals(List.of(), audited, "nothing changed, nothing audited");
    }

    @Test
    void theCallerIsUnknownWhenItCannotBeToldAndCutWhenTooLong() {
        ScriptedStore store = new ScriptedStore();
        List<Supplier<String>> callers = List.of(() -> null, () -> " ", () -> {
            throw new IllegalStateException("no request context");
        }, () -> "x".repeat(1000));
        for (Supplier<String> caller : callers) {
            store.locks.add(Optional.of(OutboxStatus.FAILED));
            assertEquals(ActionOutcome.DONE, admin(store, caller).replay(ID));
        }
        assertEquals(List.of("unknown", "unknown", "unknown", "x".repeat(255)),
                audited.stream().map(AdminAction::caller).toList());
        assertEquals(new AdminAction("replay", ID.toString(), 1, "unknown", Instant.parse("2026-12-03T12:00:00Z")),
                audited.get(0));
    }

    @Test
    void anAuditConsumerThatThrowsDoesNotUndoOrFailTheChange() {
        ScriptedStore store = new ScriptedStore();
        store.locks.add(Optional.of(OutboxStatus.PENDING));
        StoreOutboxAdmin admin = new StoreOutboxAdmin(store.proxy(), new InMemoryStore(), DIRECT, Clock.systemUTC(),
                () -> "ann", action -> {
                    throw new IllegalStateException("observer broke");
                });
        assertEquals(ActionOutcome.DONE, admin.discard(ID));
        assertEquals(1, store.changes);
    }
}
