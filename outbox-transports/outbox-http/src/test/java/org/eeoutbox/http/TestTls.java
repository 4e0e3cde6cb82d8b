package org.eeoutbox.http;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Self-signed certificates made once per test run with the JDK's {@code keytool} into
 * {@code target/}: one for 127.0.0.1 (the receiver's address), one for another host name only.
 * For each, the server side of an HTTPS receiver, and a client trust store holding just that
 * certificate.
 */
final class TestTls {

    private static final char[] PASSWORD = "changeit".toCharArray();
    private static final String ALIAS = "receiver";

    /** The names of the receiver's certificate. */
    static final String RECEIVER_NAMES = "ip:127.0.0.1,dns:localhost";
    /** The names of a certificate that does not match the receiver's address. */
    static final String OTHER_HOST_NAMES = "dns:elsewhere.example";

    private static final Map<String, KeyStore> KEY_STORES = new HashMap<>();

    private TestTls() {
    }

    /** The receiver's context: the self-signed key and certificate. */
    static SSLContext serverContext() throws IOException, GeneralSecurityException, InterruptedException {
        return serverContext(RECEIVER_NAMES);
    }

    /** A receiver's context with a certificate for {@code names} (keytool's SAN syntax). */
    static SSLContext serverContext(String names) throws IOException, GeneralSecurityException, InterruptedException {
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(keyStore(names), PASSWORD);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }

    /** A client context that trusts the self-signed certificate, and nothing else. */
    static SSLContext trustingClientContext() throws IOException, GeneralSecurityException, InterruptedException {
        return trustingClientContext(RECEIVER_NAMES);
    }

    /** A client context that trusts the certificate for {@code names}, and nothing else. */
    static SSLContext trustingClientContext(String names)
            throws IOException, GeneralSecurityException, InterruptedException {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry(ALIAS, keyStore(names).getCertificate(ALIAS));
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trustManagers.getTrustManagers(), null);
        return context;
    }

    private static synchronized KeyStore keyStore(String names)
            throws IOException, GeneralSecurityException, InterruptedException {
        KeyStore keyStore = KEY_STORES.get(names);
        if (keyStore == null) {
            Path dir = Files.createDirectories(Path.of("target", "tls"));
            Path file = dir.resolve("receiver-" + ProcessHandle.current().pid() + "-" + KEY_STORES.size() + ".p12");
            Files.deleteIfExists(file);
            Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
            Process process = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", ALIAS,
                    "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=127.0.0.1",
                    "-ext", "SAN=" + names, "-validity", "2",
                    "-storetype", "PKCS12", "-keystore", file.toString(),
                    "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD))
                    .redirectErrorStream(true)
                    .start();
            String output;
            try (InputStream out = process.getInputStream()) {
                output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("keytool failed: " + output);
            }
            KeyStore store = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(file)) {
                store.load(in, PASSWORD);
            }
            keyStore = store;
            KEY_STORES.put(names, store);
        }
        return keyStore;
    }
}
