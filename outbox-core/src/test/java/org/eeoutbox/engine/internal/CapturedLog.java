package org.eeoutbox.engine.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Catches every record of one JUL logger (where System.Logger sends them) until closed, instead of
 * letting them reach the console. For the tests that count log lines.
 */
public final class CapturedLog extends Handler implements AutoCloseable {

    private final Logger logger;
    private final Level level;
    private final boolean useParentHandlers;
    private final List<LogRecord> records = Collections.synchronizedList(new ArrayList<>());

    private CapturedLog(String name) {
        logger = Logger.getLogger(name);
        level = logger.getLevel();
        useParentHandlers = logger.getUseParentHandlers();
        logger.addHandler(this);
        logger.setUseParentHandlers(false);
        logger.setLevel(Level.ALL);
    }

    /** Starts catching the records of the logger named {@code name}, at every level. */
    public static CapturedLog of(String name) {
        return new CapturedLog(name);
    }

    /** The records caught so far, in order. */
    public List<LogRecord> records() {
        synchronized (records) {
            return List.copyOf(records);
        }
    }

    /** The formatted messages of the records at {@code atLeast} or above. */
    public List<String> messages(Level atLeast) {
        SimpleFormatter formatter = new SimpleFormatter();
        return records().stream().filter(r -> r.getLevel().intValue() >= atLeast.intValue())
                .map(formatter::formatMessage).toList();
    }

    /** How many records carry a stack trace. */
    public long traces() {
        return records().stream().filter(r -> r.getThrown() != null).count();
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {
    }

    /** Stops catching and gives the logger back its level and handlers. */
    @Override
    public void close() {
        logger.removeHandler(this);
        logger.setUseParentHandlers(useParentHandlers);
        logger.setLevel(level);
    }
}
