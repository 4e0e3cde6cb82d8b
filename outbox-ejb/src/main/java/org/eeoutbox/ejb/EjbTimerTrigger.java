package org.eeoutbox.ejb;

import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.NoSuchObjectLocalException;
import jakarta.ejb.Singleton;
import jakarta.ejb.Timeout;
import jakarta.ejb.Timer;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eeoutbox.cdi.internal.OutboxTrigger;

/**
 * Calls the outbox's periodic tasks from non-persistent Enterprise Beans interval timers, for
 * applications that prefer them to the managed scheduled executor. Selected with
 * {@code outbox.trigger=ejb-timer}; the container discovers this singleton when the
 * {@code outbox-ejb} jar is in the application, and the outbox ignores it otherwise.
 *
 * <p>Timeouts run outside any transaction ({@code NOT_SUPPORTED}): each tick only hands its task
 * to the managed executor, which runs every batch in a transaction of its own. Timers are not
 * persistent: they belong to this run of the application, end when it stops, and are never
 * replayed after a restart (the next poll catches up). Servers may round short intervals up to
 * their minimum timer interval. Thread-safe (bean-managed concurrency, concurrent map).
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class EjbTimerTrigger implements OutboxTrigger {

    private final Map<String, Runnable> ticks = new ConcurrentHashMap<>();

    @Resource
    TimerService timerService;

    @Override
    public Schedule every(String name, Duration initialDelay, Duration interval, Runnable tick) {
        ticks.put(name, tick);
        Timer timer = timerService.createIntervalTimer(initialDelay.toMillis(), interval.toMillis(),
                new TimerConfig(name, false));
        return () -> {
            ticks.remove(name, tick);
            try {
                timer.cancel();
            } catch (NoSuchObjectLocalException | IllegalStateException e) {
                // Already gone: the container removes an application's timers when it stops.
            }
        };
    }

    @Timeout
    void timeout(Timer timer) {
        Runnable tick = ticks.get((String) timer.getInfo());
        if (tick != null) {
            tick.run();
        }
    }
}
