package org.eeoutbox.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.eeoutbox.testkit.Ports;

/**
 * Payara Micro running the example WAR as a child process, its output in a log file:
 * {@code java JVM-OPTIONS -jar payara-micro-V.jar --deploy WAR --contextroot / --port P
 * --nohazelcast --disablephonehome --systemproperties FILE}, the JVM options chosen by a
 * {@link Tuning}.
 */
public final class PayaraMicro implements AutoCloseable {

    /** How the Payara JVM is tuned: for steady throughput, or to start fast. */
    public enum Tuning {
        /**
         * The JVM's own compilers (C1, then C2 for hot code), as a server runs in production; what
         * the demo measures. Starts a few seconds slower and spends CPU on compiling at first.
         */
        THROUGHPUT("-XX:+UseSerialGC"),
        /**
         * C1 only ({@code -XX:TieredStopAtLevel=1}): ready sooner, for tests that start Payara often,
         * at a steady-state cost: measured in BENCHMARKS.md, the default demo built a backlog of
         * seconds with it and kept pace without it.
         */
        QUICK_START("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

        private final List<String> jvmOptions;

        Tuning(String... jvmOptions) {
            this.jvmOptions = List.of(jvmOptions);
        }
    }

    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*m");
    private static final String PROBE_ID = "00000000-0000-0000-0000-000000000000";

    private final Process process;
    private final Path log;
    private final int port;

    private PayaraMicro(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.port = port;
    }

    /**
     * Starts Payara Micro deploying {@code war} at the root context.
     *
     * @param systemProperties a properties file: Payara's system properties, which MicroProfile
     *                         Config and {@code ${MPCONFIG=...}} in {@code @DataSourceDefinition} see
     * @param tmp              its {@code java.io.tmpdir}, where it unpacks itself and the WAR
     * @param tuning           the JVM options
     */
    public static PayaraMicro start(Path jar, Path war, Path systemProperties, Path log, Path tmp, Tuning tuning)
            throws IOException {
        return start(jar, war, systemProperties, log, tmp, tuning, Ports.free());
    }

    /** Starts Payara Micro as {@link #start(Path, Path, Path, Path, Path, Tuning)} does, on HTTP port {@code port}. */
    public static PayaraMicro start(Path jar, Path war, Path systemProperties, Path log, Path tmp, Tuning tuning,
                                    int port) throws IOException {
        Files.createDirectories(tmp);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(tuning.jvmOptions);
        command.addAll(List.of(
                "-Djava.io.tmpdir=" + tmp,
                "-jar", jar.toString(),
                "--deploy", war.toString(),
                "--contextroot", "/",
                "--port", Integer.toString(port),
                "--nohazelcast", "--disablephonehome",
                "--systemproperties", systemProperties.toString()));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .start();
        process.getOutputStream().close();
        return new PayaraMicro(process, log, port);
    }

    /** Returns the Payara Micro jar that the outbox-demo build copies into its target directory. */
    public static Path jar(Path home) throws IOException {
        return home.resolve("outbox-demo/target/payara-micro-" + version() + ".jar");
    }

    /** Returns the Payara Micro version the demo runs (outbox-demo's {@code payara.version}). */
    public static String version() throws IOException {
        Properties properties = new Properties();
        try (InputStream in = PayaraMicro.class.getResourceAsStream("demo.properties")) {
            if (in == null) {
                throw new IOException("demo.properties is not on the class path");
            }
            properties.load(in);
        }
        return properties.getProperty("payara.version");
    }

    /** Returns the example service's WAR that the outbox-example build packages. */
    public static Path exampleWar(Path home) {
        return home.resolve("outbox-example/target/outbox-example.war");
    }

    /** Writes Payara's system properties (the service's configuration) to {@code file}. */
    public static Path writeSystemProperties(Map<String, String> settings, Path file, String comment)
            throws IOException {
        Properties properties = new Properties();
        properties.putAll(settings);
        try (OutputStream out = Files.newOutputStream(file)) {
            properties.store(out, comment);
        }
        return file;
    }

    /** Returns its HTTP port. */
    public int port() {
        return port;
    }

    /** Returns the service's base URL, {@code http://127.0.0.1:PORT}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** Returns whether the process is still running. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Waits until the application answers {@code GET /orders/{unknown id}} with its own JSON 404.
     *
     * @throws DemoException if Payara exits, reports it is ready without the application, or does
     *                       not get there within {@code timeout}; the message holds the log's
     *                       deployment errors
     */
    public void awaitReady(Duration timeout) throws DemoException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest probe = HttpRequest.newBuilder(URI.create(baseUrl() + "/orders/" + PROBE_ID))
                .timeout(Duration.ofSeconds(5)).GET().build();
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean serverReady = false;
        int probesSinceServerReady = 0;
        while (true) {
            if (!process.isAlive()) {
                throw new DemoException("Payara Micro exited with code " + process.exitValue() + " while starting"
                        + deploymentErrors());
            }
            try {
                HttpResponse<String> response = client.send(probe, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 404 && response.body().contains("\"error\"")) {
                    return;
                }
            } catch (ConnectException e) {
                // not listening yet
            } catch (IOException e) {
                // listening, not answering yet
            }
            serverReady = serverReady || readLog().contains(" ready in ");
            if (serverReady) {
                // The server is up: the application has deployed or failed to.
                if (++probesSinceServerReady >= 10) {
                    throw new DemoException("Payara Micro started, but the example application did not deploy"
                            + deploymentErrors());
                }
            }
            if (System.nanoTime() > deadline) {
                throw new DemoException("Payara Micro was not ready within " + timeout.toSeconds() + " s"
                        + deploymentErrors());
            }
            TimeUnit.MILLISECONDS.sleep(250);
        }
    }

    /** Kills Payara at once (SIGKILL), as a crash would, and waits until the process is gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /**
     * Returns the outbox's counters from its MicroProfile Metrics ({@code outbox_delivered_total}
     * and so on, by OpenMetrics name without {@code _total}, summed over the delivery types), empty
     * if unreadable.
     */
    public Map<String, Double> outboxCounters() {
        try {
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl() + "/metrics?scope=application"))
                    .header("Accept", "text/plain").timeout(Duration.ofSeconds(10)).GET().build();
            String body = client.send(request, HttpResponse.BodyHandlers.ofString()).body();
            Map<String, Double> counters = new TreeMap<>();
            body.lines().filter(line -> line.startsWith("outbox_") && line.contains("_total"))
                    .forEach(line -> counters.merge(line.substring(0, line.indexOf("_total")),
                            Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)), Double::sum));
            return counters;
        } catch (IOException | RuntimeException e) {
            return Map.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of();
        }
    }

    /** Stops Payara (SIGTERM, then SIGKILL after 20 s); idempotent. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Returns its log so far, without colour codes; empty if unreadable. */
    public String readLog() {
        try {
            return ANSI.matcher(new String(Files.readAllBytes(log), StandardCharsets.UTF_8)).replaceAll("");
        } catch (IOException e) {
            return "";
        }
    }

    /** Returns the log's SEVERE records and exceptions, at most 25 lines, or a pointer to the log. */
    private String deploymentErrors() {
        List<String> lines = readLog().lines().toList();
        List<String> errors = new ArrayList<>();
        for (int i = 0; i < lines.size() && errors.size() < 25; i++) {
            String line = lines.get(i);
            if (line.contains("SEVERE") || line.startsWith("Caused by:") || line.contains("Exception while")
                    || line.contains("Invalid outbox configuration") || line.startsWith("  - ")) {
                // Payara's record header, "[time] [] [SEVERE] ... [levelValue: 1000] ", says nothing here.
                int header = line.indexOf("[levelValue: ");
                String text = (header >= 0 ? line.substring(line.indexOf(']', header) + 1) : line).strip();
                if (!text.isEmpty() && !text.equals("[[") && !errors.contains("    " + text)) {
                    errors.add("    " + (text.length() > 300 ? text.substring(0, 300) + " ..." : text));
                }
            }
        }
        return errors.isEmpty() ? "" : ":\n" + String.join("\n", errors);
    }
}
