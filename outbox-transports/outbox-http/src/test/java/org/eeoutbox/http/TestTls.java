package org.eeoutbox.http;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed certificate for 127.0.0.1, made once per test run with the JDK's {@code keytool}
 * into {@code target/}: the server side of an HTTPS receiver, and a client trust store holding
 * just that certificate.
 */
final class TestTls {

    private static final char[] PASSWORD = "changeit".toCharArray();
    private static final String ALIAS = "receiver";

    private static KeyStore keyStore;

    private TestTls() {
    }

    /** The receiver's context: the self-signed key and certificate. */
    static SSLContext serverContext() throws IOException, GeneralSecurityException, InterruptedException {
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(keyStore(), PASSWORD);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }

    /** A client context that trusts the self-signed certificate, and nothing else. */
    static SSLContext trustingClientContext() throws IOException, GeneralSecurityException, InterruptedException {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry(ALIAS, keyStore().getCertificate(ALIAS));
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trustManagers.getTrustManagers(), null);
        return context;
    }

    private static synchronized KeyStore keyStore() throws IOException, GeneralSecurityException, InterruptedException {
        if (keyStore == null) {
            Path dir = Files.createDirectories(Path.of("target", "tls"));
            Path file = dir.resolve("receiver-" + ProcessHandle.current().pid() + ".p12");
            Files.deleteIfExists(file);
            Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
            Process process = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", ALIAS,
                    "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=127.0.0.1",
                    "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2",
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
        }
        return keyStore;
    }
}
