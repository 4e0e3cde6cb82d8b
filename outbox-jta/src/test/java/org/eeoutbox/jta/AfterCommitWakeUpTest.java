package org.eeoutbox.jta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.transaction.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The after-commit wake-up, on a transaction registry the test completes by hand. */
class AfterCommitWakeUpTest {

    private final FakeTransactionSynchronizationRegistry registry = new FakeTransactionSynchronizationRegistry();
    private final AtomicInteger wakeUps = new AtomicInteger();
    private final AfterCommitWakeUp wakeUp = new AfterCommitWakeUp(registry, () -> {
        wakeUps.incrementAndGet();
        registry.events.add("wake-up");
    });

    /** Held strongly: JUL keeps only weak references to loggers, and the filter would go with it. */
    private final Logger log = Logger.getLogger(AfterCommitWakeUp.class.getName());
    private final List<LogRecord> logged = new ArrayList<>();

    @AfterEach
    void stopRecording() {
        log.setFilter(null);
    }

    @Test
    void aCommitWakesTheProcessorOnceAfterTheTransactionCompleted() {
        registry.begin();

        wakeUp.register();
        assertEquals(0, wakeUps.get(), "nothing wakes before the commit");
        registry.commit();

        assertEquals(List.of("beforeCompletion", "afterCompletion STATUS_COMMITTED", "wake-up"), registry.events);
    }

    @Test
    void manyPublishesInOneTransactionRegisterOneSynchronization() {
        registry.begin();

        wakeUp.register();
        wakeUp.register();
        wakeUp.register();

        assertEquals(1, registry.synchronizations.size());
        registry.commit();
        assertEquals(1, wakeUps.get());
    }

    @Test
    void eachTransactionGetsASynchronizationOfItsOwn() {
        registry.begin();
        wakeUp.register();
        registry.commit();
        registry.begin();
        wakeUp.register();
        registry.commit();

        assertEquals(2, wakeUps.get(), "the second transaction woke the processor too");
    }

    @Test
    void twoOutboxesInOneTransactionEachWakeTheirOwnProcessor() {
        AtomicInteger otherWakeUps = new AtomicInteger();
        AfterCommitWakeUp other = new AfterCommitWakeUp(registry, otherWakeUps::incrementAndGet);
        registry.begin();

        wakeUp.register();
        other.register();
        registry.commit();

        assertEquals(1, wakeUps.get());
        assertEquals(1, otherWakeUps.get());
    }

    @Test
    void aRollbackWakesNothing() {
        registry.begin();
        wakeUp.register();

        registry.rollback();

        assertEquals(List.of("afterCompletion STATUS_ROLLEDBACK"), registry.events);
    }

    @Test
    void aTransactionMarkedForRollbackWakesNothingWhenItEnds() {
        registry.begin();
        wakeUp.register();
        registry.setRollbackOnly();

        registry.commit();

        assertEquals(0, wakeUps.get());
    }

    /** Any outcome but a commit, including the heuristic "unknown" a transaction manager may report. */
    @ParameterizedTest
    @ValueSource(ints = {Status.STATUS_ROLLEDBACK, Status.STATUS_UNKNOWN, Status.STATUS_NO_TRANSACTION})
    void onlyACommittedOutcomeWakesTheProcessor(int outcome) {
        registry.begin();
        wakeUp.register();

        registry.complete(outcome);

        assertEquals(0, wakeUps.get(), TransactionStatuses.name(outcome));
    }

    @Test
    void aFailingWakeUpIsLoggedAndDoesNotReachTheCommittingCaller() {
        log.setFilter(record -> !logged.add(record)); // records, and keeps the expected warning off the console
        IllegalStateException refused = new IllegalStateException("executor shut down");
        AfterCommitWakeUp failing = new AfterCommitWakeUp(registry, () -> {
            throw refused;
        });
        registry.begin();
        failing.register();

        registry.commit();

        assertEquals(1, logged.size(), "one log record");
        assertEquals(Level.WARNING, logged.get(0).getLevel());
        assertSame(refused, logged.get(0).getThrown());
        assertTrue(logged.get(0).getMessage().contains("Could not wake the outbox processor"),
                logged.get(0).getMessage());
    }

    @Test
    void registeringOutsideATransactionThrowsAndRegistersNothing() {
        assertThrows(IllegalStateException.class, wakeUp::register);

        assertTrue(registry.synchronizations.isEmpty());
    }
}
