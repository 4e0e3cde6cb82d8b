package org.eeoutbox.it.support;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Starts {@link ItEnvironment} when the JUnit launcher session opens, before Arquillian reads
 * arquillian.xml, and stops it when the session closes. Registered in
 * {@code META-INF/services/org.junit.platform.launcher.LauncherSessionListener}; failsafe opens one
 * session per forked JVM around all IT classes.
 *
 * <p>Starting is eager on purpose: an exception here fails the build ("error in the forked
 * process"), whereas JUnit's lazy {@code TestExecutionListener} recipe only logs it. The failure is
 * also printed to stderr, since otherwise failsafe keeps the cause in a {@code *.dump} file only.
 */
public final class ItSessionListener implements LauncherSessionListener {

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        try {
            ItEnvironment.start();
        } catch (RuntimeException | Error e) {
            System.err.println("ItSessionListener: the IT infrastructure did not start");
            e.printStackTrace();
            throw e;
        }
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        ItEnvironment.stop();
    }
}
