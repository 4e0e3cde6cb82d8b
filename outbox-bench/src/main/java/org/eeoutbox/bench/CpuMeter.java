package org.eeoutbox.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * CPU time spent by this JVM and by its database servers, so that a measurement can say where its
 * time went: CPU per message is far less disturbed by other load on the machine than wall-clock
 * rates. The servers are the {@code postgres}, {@code mysqld} and {@code mariadbd} processes whose command line names
 * this JVM's {@code java.io.tmpdir} (where the test kit puts their data), and the children of such
 * a process (PostgreSQL's backends), read from {@code /proc}; other servers on the machine, such as
 * another build's, are left out. The server figure has the resolution of the kernel's clock tick
 * (10 ms); it is 0 where {@code /proc} is missing.
 *
 * <p>The in-JVM HTTP receiver's share of this JVM's time is read apart: the threads named
 * {@value #RECEIVER_THREADS}{@code *} (its handlers and delays) and the JDK server's
 * {@value #RECEIVER_DISPATCHER}. A real receiver runs elsewhere, and the JDK server reads request
 * headers one byte at a time, so its time would otherwise be charged to the sender's headers.
 */
final class CpuMeter {

    /** A reading; nanoseconds of CPU: this whole JVM, the receiver's threads in it, the databases. */
    record Reading(long jvmNanos, long receiverNanos, long databaseNanos) {
    }

    /** The name prefix of the bench receiver's threads (its {@code HttpReceiver} name). */
    static final String RECEIVER_THREADS = "bench-receiver";
    private static final String RECEIVER_DISPATCHER = "HTTP-Dispatcher";

    private static final Set<String> DATABASE_COMMANDS = Set.of("postgres", "mysqld", "mariadbd");
    private static final long NANOS_PER_TICK = 10_000_000L; // USER_HZ is 100 on Linux
    private static final String TMP_DIR = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().toString();
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CpuMeter() {
    }

    static Reading read() {
        return new Reading(OS.getProcessCpuTime(), receiverNanos(), databaseNanos());
    }

    /** The CPU time of the receiver's live threads (a pool's threads live as long as the receiver). */
    private static long receiverNanos() {
        long nanos = 0;
        for (ThreadInfo thread : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (thread != null && (thread.getThreadName().startsWith(RECEIVER_THREADS)
                    || thread.getThreadName().equals(RECEIVER_DISPATCHER))) {
                nanos += Math.max(0, THREADS.getThreadCpuTime(thread.getThreadId()));
            }
        }
        return nanos;
    }

    private static long databaseNanos() {
        Map<Long, long[]> servers = new HashMap<>(); // pid -> {parent pid, ticks}
        Set<Long> ours = new HashSet<>();
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path process : processes) {
                readServer(process, servers, ours);
            }
        } catch (IOException e) {
            return 0;
        }
        long ticks = 0;
        for (Map.Entry<Long, long[]> server : servers.entrySet()) {
            if (ours.contains(server.getKey()) || ours.contains(server.getValue()[0])) {
                ticks += server.getValue()[1];
            }
        }
        return ticks * NANOS_PER_TICK;
    }

    /** Records a database process's parent and utime + stime; ignores any other (or one that just ended). */
    private static void readServer(Path process, Map<Long, long[]> servers, Set<Long> ours) {
        try {
            String stat = Files.readString(process.resolve("stat"));
            int open = stat.indexOf('(');
            int close = stat.lastIndexOf(')');
            if (!DATABASE_COMMANDS.contains(stat.substring(open + 1, close))) {
                return;
            }
            // After "pid (comm) ": state is field 3, the parent 4; utime and stime are fields 14 and 15.
            String[] fields = stat.substring(close + 2).split(" ");
            long pid = Long.parseLong(stat.substring(0, open).strip());
            servers.put(pid, new long[] {Long.parseLong(fields[1]), Long.parseLong(fields[11]) + Long.parseLong(fields[12])});
            if (Files.readString(process.resolve("cmdline")).contains(TMP_DIR)) {
                ours.add(pid);
            }
        } catch (IOException | RuntimeException e) {
            // The process ended meanwhile.
        }
    }
}
