package org.eeoutbox.demo;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The demo's output: lines, and a progress line that a terminal redraws in place with
 * {@code \r}; when the output is not a terminal (CI), the progress is printed as a line every
 * few seconds instead. Thread-safe.
 */
final class Console {

    private static final long PLAIN_PROGRESS_NANOS = 5_000_000_000L;

    private final PrintStream out;
    private final boolean terminal;
    private int progressLength; // length of the progress line on screen, 0 if none; guarded by this
    private long lastPlainProgress; // guarded by this

    Console(PrintStream out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    /** Prints a line, below the progress line if one is shown. */
    synchronized void line(String text) {
        clearProgress();
        out.println(text);
        out.flush();
    }

    /** Shows the progress: in place on a terminal; otherwise every few seconds, or now if {@code force}. */
    synchronized void progress(String text, boolean force) {
        if (terminal) {
            StringBuilder line = new StringBuilder("\r").append(text);
            for (int i = text.length(); i < progressLength; i++) {
                line.append(' ');
            }
            progressLength = text.length();
            out.print(line);
            out.flush();
        } else if (force || System.nanoTime() - lastPlainProgress >= PLAIN_PROGRESS_NANOS) {
            lastPlainProgress = System.nanoTime();
            out.println(text);
            out.flush();
        }
    }

    /** Ends the progress line: it stays on screen and later output starts on a new line. */
    synchronized void endProgress() {
        if (progressLength > 0) {
            out.println();
            out.flush();
            progressLength = 0;
        }
    }

    private void clearProgress() {
        if (progressLength > 0) {
            out.print("\r" + " ".repeat(progressLength) + "\r");
            progressLength = 0;
        }
    }

    /** Formats a count with thousands separators: {@code 10,000}. */
    static String count(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }

    /** Formats seconds with one decimal: {@code 12.3 s}. */
    static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }
}
