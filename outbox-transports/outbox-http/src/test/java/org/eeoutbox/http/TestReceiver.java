package org.eeoutbox.http;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

/**
 * A real HTTP (or HTTPS) server on the loopback interface, in the test JVM: the JDK's
 * {@link HttpServer}. Each path runs a scripted handler; every request is recorded, body included,
 * before its handler runs.
 */
final class TestReceiver implements AutoCloseable {

    /** A request as the server saw it. */
    record Received(String method, URI uri, Headers headers, String body) {

        /** All values of a header (names compare case-insensitively). */
        List<String> header(String name) {
            List<String> values = headers.get(name);
            return values == null ? List.of() : values;
        }
    }

    /** What a path does once its request is recorded. */
    @FunctionalInterface
    interface Script {
        void handle(HttpExchange exchange) throws IOException, InterruptedException;
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();

    private TestReceiver(HttpServer server) {
        this.server = server;
        server.setExecutor(executor);
        server.start();
    }

    static TestReceiver http() throws IOException {
        return new TestReceiver(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0));
    }

    static TestReceiver https(SSLContext serverContext) throws IOException {
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(serverContext));
        return new TestReceiver(server);
    }

    /** Runs {@code script} for requests to {@code path} (and below it). */
    TestReceiver on(String path, Script script) {
        server.createContext(path, exchange -> {
            try (exchange) {
                byte[] body;
                try (InputStream in = exchange.getRequestBody()) {
                    body = in.readAllBytes();
                }
                received.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI(),
                        exchange.getRequestHeaders(), new String(body, StandardCharsets.UTF_8)));
                script.handle(exchange);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException ignored) {
                // the client went away, as some tests intend
            }
        });
        return this;
    }

    /** Answers {@code status} with {@code body}. */
    static Script answer(int status, String body, String... headerNamesAndValues) {
        return exchange -> respond(exchange, status, body, headerNamesAndValues);
    }

    static void respond(HttpExchange exchange, int status, String body, String... headerNamesAndValues)
            throws IOException {
        for (int i = 0; i < headerNamesAndValues.length; i += 2) {
            exchange.getResponseHeaders().add(headerNamesAndValues[i], headerNamesAndValues[i + 1]);
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    URI baseUrl() {
        String scheme = server instanceof HttpsServer ? "https" : "http";
        return URI.create(scheme + "://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Returns the next request received within 10 seconds, or {@code null}. */
    Received next() throws InterruptedException {
        return next(10, TimeUnit.SECONDS);
    }

    /** Returns the next request received within the timeout, or {@code null}. */
    Received next(long timeout, TimeUnit unit) throws InterruptedException {
        return received.poll(timeout, unit);
    }

    /** Returns the next request already received, or {@code null}. */
    Received poll() {
        return received.poll();
    }

    /** Returns how many recorded requests have not been taken yet. */
    int pending() {
        return received.size();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
