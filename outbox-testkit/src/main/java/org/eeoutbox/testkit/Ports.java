package org.eeoutbox.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * Free TCP ports on the loopback interface. A port is free when chosen: nothing stops another
 * process from taking it before the caller binds it, so bind soon, or use port 0 where the server
 * allows it.
 */
public final class Ports {

    private Ports() {
    }

    /**
     * Returns a loopback port that nothing listens on right now: a server to bind later, or an
     * address that refuses connections.
     *
     * @throws UncheckedIOException if no port can be opened
     */
    public static int free() {
        return free(1)[0];
    }

    /**
     * Returns {@code count} distinct free loopback ports, all held open together while choosing.
     *
     * @throws UncheckedIOException if the ports cannot be opened
     */
    public static int[] free(int count) {
        ServerSocket[] sockets = new ServerSocket[count];
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                sockets[i] = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot find " + count + " free loopback port(s)", e);
        } finally {
            for (ServerSocket socket : sockets) {
                if (socket != null) {
                    try {
                        socket.close();
                    } catch (IOException e) {
                        // Closing a socket that accepted nothing; the port is free either way.
                    }
                }
            }
        }
    }
}
