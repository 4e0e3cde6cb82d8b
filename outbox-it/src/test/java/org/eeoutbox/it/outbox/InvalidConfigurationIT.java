package org.eeoutbox.it.outbox;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.eeoutbox.it.app.TestApps;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** An invalid configuration value fails the deployment, and the failure names the property. */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class InvalidConfigurationIT {

    private static final String INVALID = "invalid-batch-size";

    @Deployment(name = INVALID, managed = false)
    static WebArchive deployment() {
        return TestApps.war(INVALID, Map.of("outbox.processor.batch-size", "0"));
    }

    @ArquillianResource
    Deployer deployer;

    /**
     * The Payara Micro connector does not notice a failed deployment (it only waits for the
     * process), so the test reads Payara's log, which the connector copies to this JVM's standard
     * output.
     */
    @Test
    void aBatchSizeOfZeroFailsTheDeploymentNamingTheProperty() {
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(new TeeOutputStream(original, copy), true, StandardCharsets.UTF_8));
        try {
            deployer.deploy(INVALID);
        } finally {
            System.setOut(original);
        }

        String payaraLog = copy.toString(StandardCharsets.UTF_8);
        assertTrue(payaraLog.contains("Invalid outbox configuration"), payaraLog);
        assertTrue(payaraLog.contains("outbox.processor.batch-size=0 is invalid: expected a whole number in [1, 10000]"),
                payaraLog);
        assertTrue(payaraLog.contains("Exception while loading the app"), "Payara refused the application");
    }

    /** Writes to two streams. */
    private static final class TeeOutputStream extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        TeeOutputStream(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public synchronized void write(int b) throws IOException {
            first.write(b);
            second.write(b);
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
            first.write(bytes, offset, length);
            second.write(bytes, offset, length);
        }
    }
}
