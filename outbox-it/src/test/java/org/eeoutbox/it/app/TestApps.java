package org.eeoutbox.it.app;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.eeoutbox.OutboxPublisher;
import org.eeoutbox.cdi.OutboxRuntime;
import org.eeoutbox.http.HttpDelivery;
import org.eeoutbox.it.support.Deployments;
import org.eeoutbox.it.support.ItConfig;
import org.eeoutbox.jdbc.JdbcOutboxStore;
import org.eeoutbox.jta.JtaOutboxPublisher;
import org.eeoutbox.kafka.KafkaDelivery;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** Builds the test application WAR: the order service, the outbox library and its configuration. */
public final class TestApps {

    private TestApps() {
    }

    /**
     * Returns the test application with the base configuration, overridden and extended by
     * {@code properties} (MicroProfile Config, in {@code META-INF/microprofile-config.properties});
     * a {@code null} value removes a base property.
     */
    public static WebArchive war(String name, Map<String, String> properties) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("outbox.datasource", ItConfig.DATASOURCE);
        config.put("outbox.schema.create", "true");
        config.put("outbox.http.service." + Orders.RECEIVER + ".url", "${" + ItConfig.RECEIVER_URL + "}");
        config.put("outbox.kafka.bootstrap.servers", "${" + ItConfig.KAFKA_BOOTSTRAP + "}");
        config.put("outbox.processor.interval", "200ms");
        config.put("outbox.processor.initial-backoff", "1s");
        config.put("outbox.processor.max-backoff", "1s");
        config.put("outbox.processor.backoff-jitter", "0");
        config.put("outbox.metrics.refresh-interval", "1s");
        config.putAll(properties);
        String text = config.entrySet().stream().filter(e -> e.getValue() != null).map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n"));
        WebArchive war = Deployments.war(name)
                .addClasses(Orders.class, OrdersResource.class, ItRestApplication.class)
                .addAsResource(new StringAsset(text), "META-INF/microprofile-config.properties");
        return Deployments.addLibrariesOf(war, OutboxPublisher.class, JdbcOutboxStore.class, JtaOutboxPublisher.class,
                OutboxRuntime.class, HttpDelivery.class, KafkaDelivery.class);
    }
}
