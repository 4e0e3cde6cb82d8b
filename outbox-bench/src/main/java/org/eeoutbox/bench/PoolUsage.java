package org.eeoutbox.bench;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;

/**
 * How many connections of the measuring pool are in use while a side runs, sampled every 200 µs
 * by a daemon thread: the lease benchmark's "connections held" (issue 16: at most one per worker,
 * and none while the receivers are awaited). Counts every round it wraps, warm-up included. Not
 * thread-safe: one side at a time, as {@link Runner} runs them.
 */
final class PoolUsage {

    private final HikariPoolMXBean pool;
    private long samples;
    private long inUse;
    private int max;

    /** @param pool the measuring pool ({@link BenchDatabase#pool()}), a HikariCP pool */
    PoolUsage(DataSource pool) {
        this.pool = ((HikariDataSource) pool).getHikariPoolMXBean();
    }

    /** Returns {@code work} wrapped so that the pool is sampled while it runs. */
    Runner.Work during(Runner.Work work) {
        return () -> {
            AtomicBoolean running = new AtomicBoolean(true);
            Thread sampler = new Thread(() -> {
                while (running.get()) {
                    int active = pool.getActiveConnections();
                    samples++;
                    inUse += active;
                    max = Math.max(max, active);
                    LockSupport.parkNanos(200_000);
                }
            }, "bench-pool-usage");
            sampler.setDaemon(true);
            sampler.start();
            try {
                return work.run();
            } finally {
                running.set(false);
                sampler.join();
            }
        };
    }

    /** Returns the mean and the most connections in use over the samples so far. */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "mean %.2f, max %d", samples == 0 ? 0.0 : (double) inUse / samples, max);
    }
}
