package org.eeoutbox.it.smoke;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eeoutbox.it.support.Deployments;
import org.eeoutbox.it.support.HttpReceiver;
import org.eeoutbox.it.support.ItConfig;
import org.eeoutbox.it.support.ItEnvironment;
import org.eeoutbox.it.support.ReceivedRequest;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Proves the IT wiring on Payara Micro: the DataSource defined from the published configuration is
 * enlisted in JTA with READ COMMITTED, kafka-clients in the WAR reaches the broker, and HTTP from
 * inside Payara reaches the receiver.
 *
 * <p>Runs in-container unless {@code @RunAsClient}: fields may hold only types that exist inside
 * Payara (never {@link ItEnvironment} or {@link HttpReceiver}).
 */
@ExtendWith(ArquillianExtension.class)
class SmokeIT {

    @Deployment
    static WebArchive deployment() {
        return Deployments.war("smoke").addClasses(SmokeRows.class, SmokeApplication.class, SmokeForwarder.class);
    }

    @Inject
    SmokeRows rows;

    @Inject
    UserTransaction transaction;

    @Test
    void dataSourceIsEnlistedInJtaWithReadCommitted() throws Exception {
        rows.createTable();
        String committed = UUID.randomUUID().toString();
        assertEquals(Connection.TRANSACTION_READ_COMMITTED, rows.insert(committed));
        assertTrue(rows.exists(committed), "a row written in its own transaction is committed");

        String rolledBack = UUID.randomUUID().toString();
        transaction.begin();
        try {
            rows.insert(rolledBack);
        } finally {
            transaction.rollback();
        }
        assertFalse(rows.exists(rolledBack), "the rollback of the caller's transaction removed the row");
    }

    @Test
    void kafkaClientsInTheWarReachTheBroker() throws Exception {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                ConfigProvider.getConfig().getValue(ItConfig.KAFKA_BOOTSTRAP, String.class));
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
            RecordMetadata sent = producer.send(new ProducerRecord<>(ItConfig.KAFKA_TOPIC, "smoke", "hello"))
                    .get(20, TimeUnit.SECONDS);
            assertTrue(sent.offset() >= 0, "the broker assigned an offset");
        }
    }

    @Test
    @RunAsClient
    void httpFromPayaraReachesTheReceiver(@ArquillianResource URL base) throws Exception {
        HttpReceiver receiver = ItEnvironment.receiver();
        receiver.reset();
        receiver.respond("/gone", 404);
        String id = UUID.randomUUID().toString();

        assertEquals("200", forward(base, "smoke", id));
        assertEquals("404", forward(base, "gone", id));
        receiver.down(true);
        assertEquals("503", forward(base, "smoke", id));

        List<ReceivedRequest> smoke = receiver.await("/smoke", 2, Duration.ofSeconds(5));
        assertEquals(List.of(200, 503), smoke.stream().map(ReceivedRequest::status).toList());
        ReceivedRequest first = smoke.get(0);
        assertEquals("POST", first.method());
        assertEquals(id, first.outboxId());
        assertEquals("{\"smoke\":true}", first.body());
        assertEquals(List.of(404), receiver.requests("/gone").stream().map(ReceivedRequest::status).toList());
    }

    /** Asks the WAR to forward a body to the receiver at {@code /path}; returns the receiver's status. */
    private static String forward(URL base, String path, String id) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "api/forward/" + path))
                .header("x-outbox-id", id)
                .POST(HttpRequest.BodyPublishers.ofString("{\"smoke\":true}"))
                .build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), () -> "forward answered " + response.body());
        return response.body();
    }
}
