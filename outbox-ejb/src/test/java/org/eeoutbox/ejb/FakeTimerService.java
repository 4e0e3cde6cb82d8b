package org.eeoutbox.ejb;

import jakarta.ejb.NoSuchObjectLocalException;
import jakarta.ejb.ScheduleExpression;
import jakarta.ejb.Timer;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerHandle;
import jakarta.ejb.TimerService;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.function.Consumer;

/**
 * A timer service that never fires on its own: it records the interval timers created, and the
 * test delivers their timeouts by hand. Every other method fails the test.
 */
final class FakeTimerService implements TimerService {

    /** An interval timer as created; a second {@link #cancel} throws, as the container's does. */
    static final class FakeTimer implements Timer {
        final long initialDuration;
        final long intervalDuration;
        final Serializable info;
        final boolean persistent;
        boolean cancelled;
        /** Thrown by the next {@link #cancel}, as a container that removed the timer already. */
        RuntimeException cancelFailure;

        FakeTimer(long initialDuration, long intervalDuration, Serializable info, boolean persistent) {
            this.initialDuration = initialDuration;
            this.intervalDuration = intervalDuration;
            this.info = info;
            this.persistent = persistent;
        }

        /** A timer the container delivers a timeout for, carrying {@code info}. */
        static FakeTimer carrying(Serializable info) {
            return new FakeTimer(0, 1, info, false);
        }

        @Override
        public void cancel() {
            if (cancelFailure != null) {
                throw cancelFailure;
            }
            if (cancelled) {
                throw new NoSuchObjectLocalException("timer " + info + " was cancelled already");
            }
            cancelled = true;
        }

        @Override
        public Serializable getInfo() {
            return info;
        }

        @Override
        public boolean isPersistent() {
            return persistent;
        }

        @Override
        public boolean isCalendarTimer() {
            return false;
        }

        @Override
        public long getTimeRemaining() {
            throw new UnsupportedOperationException("getTimeRemaining");
        }

        @Override
        public Date getNextTimeout() {
            throw new UnsupportedOperationException("getNextTimeout");
        }

        @Override
        public ScheduleExpression getSchedule() {
            throw new UnsupportedOperationException("getSchedule");
        }

        @Override
        public TimerHandle getHandle() {
            throw new UnsupportedOperationException("getHandle: non-persistent timers have no handle");
        }
    }

    final List<FakeTimer> created = new ArrayList<>();
    /** Runs as each timer is created, before {@code createIntervalTimer} returns. */
    Consumer<FakeTimer> onCreate = timer -> { };

    @Override
    public Timer createIntervalTimer(long initialDuration, long intervalDuration, TimerConfig timerConfig) {
        FakeTimer timer = new FakeTimer(initialDuration, intervalDuration, timerConfig.getInfo(),
                timerConfig.isPersistent());
        created.add(timer);
        onCreate.accept(timer);
        return timer;
    }

    @Override
    public Collection<Timer> getTimers() {
        throw unexpected();
    }

    @Override
    public Collection<Timer> getAllTimers() {
        throw unexpected();
    }

    @Override
    public Timer createTimer(long duration, Serializable info) {
        throw unexpected();
    }

    @Override
    public Timer createSingleActionTimer(long duration, TimerConfig timerConfig) {
        throw unexpected();
    }

    @Override
    public Timer createTimer(long initialDuration, long intervalDuration, Serializable info) {
        throw unexpected();
    }

    @Override
    public Timer createTimer(Date expiration, Serializable info) {
        throw unexpected();
    }

    @Override
    public Timer createSingleActionTimer(Date expiration, TimerConfig timerConfig) {
        throw unexpected();
    }

    @Override
    public Timer createTimer(Date initialExpiration, long intervalDuration, Serializable info) {
        throw unexpected();
    }

    @Override
    public Timer createIntervalTimer(Date initialExpiration, long intervalDuration, TimerConfig timerConfig) {
        throw unexpected();
    }

    @Override
    public Timer createCalendarTimer(ScheduleExpression schedule) {
        throw unexpected();
    }

    @Override
    public Timer createCalendarTimer(ScheduleExpression schedule, TimerConfig timerConfig) {
        throw unexpected();
    }

    private static UnsupportedOperationException unexpected() {
        return new UnsupportedOperationException(
                "the trigger only creates interval timers from a delay and a TimerConfig");
    }
}
