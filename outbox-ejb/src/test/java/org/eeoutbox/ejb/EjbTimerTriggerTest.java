package org.eeoutbox.ejb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.NoSuchObjectLocalException;
import jakarta.ejb.Singleton;
import jakarta.ejb.Timeout;
import jakarta.ejb.Timer;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.eeoutbox.cdi.internal.OutboxTrigger.Schedule;
import org.eeoutbox.ejb.FakeTimerService.FakeTimer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The timer trigger on a timer service whose timeouts the test delivers by hand. That a server
 * creates the bean and fires its timers is {@code SchedulingIT}'s part in outbox-it (there the
 * polls come from this trigger only).
 */
class EjbTimerTriggerTest {

    private final FakeTimerService timerService = new FakeTimerService();
    private final EjbTimerTrigger trigger = new EjbTimerTrigger();
    /** The ticks that ran, in order, by task name. */
    private final List<String> ran = new ArrayList<>();

    EjbTimerTriggerTest() {
        trigger.timerService = timerService;
    }

    @Test
    void everyCreatesOneNonPersistentIntervalTimerCarryingTheTaskName() {
        trigger.every("processor", Duration.ofMillis(1500), Duration.ofSeconds(5), tick("processor"));

        assertEquals(1, timerService.created.size());
        FakeTimer timer = timerService.created.get(0);
        assertEquals(1500, timer.initialDuration);
        assertEquals(5000, timer.intervalDuration);
        assertFalse(timer.persistent, "never replayed after a restart");
        assertEquals("processor", timer.info);
        assertTrue(ran.isEmpty(), "nothing runs before the timer fires");
    }

    @Test
    void aTimeoutRunsTheTickOfItsOwnTaskOnce() {
        trigger.every("processor", Duration.ZERO, Duration.ofSeconds(1), tick("processor"));
        trigger.every("purger", Duration.ZERO, Duration.ofHours(1), tick("purger"));

        trigger.timeout(timerService.created.get(1));
        trigger.timeout(timerService.created.get(0));
        trigger.timeout(timerService.created.get(0));

        assertEquals(List.of("purger", "processor", "processor"), ran);
    }

    @Test
    void aTimeoutForATaskThisTriggerDoesNotKnowRunsNothing() {
        trigger.every("processor", Duration.ZERO, Duration.ofSeconds(1), tick("processor"));

        trigger.timeout(FakeTimer.carrying("left over from an earlier deployment"));

        assertTrue(ran.isEmpty());
    }

    @Test
    void aTimerFiringBeforeEveryReturnsFindsItsTick() {
        timerService.onCreate = trigger::timeout;

        trigger.every("processor", Duration.ZERO, Duration.ofSeconds(1), tick("processor"));

        assertEquals(List.of("processor"), ran, "a zero delay may fire on another thread at once");
    }

    @Test
    void cancelCancelsTheTimerAndATimeoutStillUnderWayForTheTaskRunsNothing() {
        Schedule processor = trigger.every("processor", Duration.ZERO, Duration.ofSeconds(1), tick("processor"));
        trigger.every("purger", Duration.ZERO, Duration.ofHours(1), tick("purger"));

        processor.cancel();
        trigger.timeout(FakeTimer.carrying("processor"));
        trigger.timeout(timerService.created.get(1));

        assertTrue(timerService.created.get(0).cancelled);
        assertFalse(timerService.created.get(1).cancelled, "the other task's timer runs on");
        assertEquals(List.of("purger"), ran);
    }

    @Test
    void cancelIsIdempotent() {
        Schedule processor = trigger.every("processor", Duration.ZERO, Duration.ofSeconds(1), tick("processor"));

        processor.cancel();
        processor.cancel();

        assertTrue(timerService.created.get(0).cancelled);
    }

    static Stream<RuntimeException> goneTimers() {
        return Stream.of(new NoSuchObjectLocalException("timer expired or was cancelled"),
                new IllegalStateException("timer service not available: the application is stopping"));
    }

    @ParameterizedTest
    @MethodSource("goneTimers")
    void cancelToleratesATimerTheContainerRemovedAlreadyAndStillForgetsTheTask(RuntimeException gone) {
        Schedule processor = trigger.every("processor", Duration.ZERO, Duration.ofSeconds(1), tick("processor"));
        timerService.created.get(0).cancelFailure = gone;

        processor.cancel();
        trigger.timeout(FakeTimer.carrying("processor"));

        assertTrue(ran.isEmpty());
    }

    @Test
    void aLateCancelOfAnEarlierScheduleKeepsTheNewerTaskOfTheSameName() {
        Schedule earlier = trigger.every("processor", Duration.ZERO, Duration.ofSeconds(1), tick("earlier"));
        trigger.every("processor", Duration.ZERO, Duration.ofSeconds(1), tick("newer"));

        earlier.cancel();
        trigger.timeout(timerService.created.get(1));

        assertEquals(List.of("newer"), ran);
    }

    /**
     * What only a server would read: OutboxRuntime looks the bean up under its default name,
     * {@code java:module/EjbTimerTrigger!…OutboxTrigger}; its timeouts run outside transactions and
     * without the container's singleton lock.
     */
    @Test
    void theBeanIsADefaultNamedSingletonWithBeanManagedConcurrencyAndNoTransactions() throws NoSuchMethodException {
        Singleton singleton = EjbTimerTrigger.class.getAnnotation(Singleton.class);
        ConcurrencyManagement concurrency = EjbTimerTrigger.class.getAnnotation(ConcurrencyManagement.class);
        TransactionAttribute transactions = EjbTimerTrigger.class.getAnnotation(TransactionAttribute.class);

        assertNotNull(singleton, "@Singleton");
        assertEquals("", singleton.name(), "the default bean name");
        assertNotNull(concurrency, "@ConcurrencyManagement");
        assertEquals(ConcurrencyManagementType.BEAN, concurrency.value());
        assertNotNull(transactions, "@TransactionAttribute");
        assertEquals(TransactionAttributeType.NOT_SUPPORTED, transactions.value());
        assertNotNull(EjbTimerTrigger.class.getDeclaredMethod("timeout", Timer.class).getAnnotation(Timeout.class),
                "@Timeout on timeout(Timer)");
    }

    private Runnable tick(String name) {
        return () -> ran.add(name);
    }
}
