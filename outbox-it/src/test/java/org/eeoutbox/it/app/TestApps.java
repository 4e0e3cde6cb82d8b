package org.eeoutbox.it.app;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.eeoutbox.OutboxPublisher;
import org.eeoutbox.cdi.internal.OutboxRuntime;
import org.eeoutbox.engine.OutboxProcessor;
import org.eeoutbox.http.HttpDelivery;
import org.eeoutbox.it.support.Deployments;
import org.eeoutbox.it.support.ItConfig;
import org.eeoutbox.it.support.ItEnvironment;
import org.eeoutbox.jdbc.JdbcOutboxStore;
import org.eeoutbox.jta.JtaOutboxPublisher;
import org.eeoutbox.kafka.KafkaDelivery;
import org.jboss.shrinkwrap.api.asset.FileAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * Builds the test application WAR (test JVM only): the order service, the outbox library, its
 * configuration and the DataSource.
 *
 * <p>Everything that depends on the running infrastructure is written into the WAR here, where it
 * is known: the class carrying the {@code @DataSourceDefinition} (compiled with this run's URL and
 * login, see {@link ItEnvironment#dataSourceClass()}), and the receiver URL and broker address in
 * {@code microprofile-config.properties}. So every server runs the WAR as it is, with no test
 * settings of its own.
 */
public final class TestApps {

    private TestApps() {
    }

    /**
     * Returns the test application with the base configuration, overridden and extended by
     * {@code properties} (MicroProfile Config, in {@code META-INF/microprofile-config.properties});
     * a {@code null} value removes a base property.
     */
    public static WebArchive war(String name, Map<String, String> properties) {
        return war(name, properties, ItEnvironment.dataSourceClass());
    }

    /**
     * Like {@link #war(String, Map)}, with {@code dataSourceClass} as the class that defines the
     * DataSource (one of {@link ItEnvironment}'s: {@code dataSourceClass()} or a variant).
     */
    public static WebArchive war(String name, Map<String, String> properties, Path dataSourceClass) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("outbox.datasource", ItConfig.DATASOURCE);
        config.put("outbox.schema.create", "true");
        config.put("outbox.http.service." + Orders.RECEIVER + ".url", ItEnvironment.receiver().url());
        config.put("outbox.kafka.producer.bootstrap.servers", ItEnvironment.kafka().bootstrapServers());
        config.put("outbox.processor.interval", "200ms");
        config.put("outbox.processor.initial-backoff", "1s");
        config.put("outbox.processor.max-backoff", "1s");
        config.put("outbox.processor.backoff-jitter", "0");
        config.put("outbox.metrics.refresh-interval", "1s");
        config.putAll(properties);
        String text = config.entrySet().stream().filter(e -> e.getValue() != null).map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n"));
        WebArchive war = Deployments.war(name)
                .addClasses(Orders.class, OrdersResource.class, ItRestApplication.class, OpenTransactions.class)
                .addAsResource(new StringAsset(text), "META-INF/microprofile-config.properties")
                .addAsWebInfResource(new FileAsset(dataSourceClass.toFile()),
                        "classes/" + ItEnvironment.DATA_SOURCE_CLASS_PATH);
        return Deployments.addLibrariesOf(war, OutboxPublisher.class, OutboxProcessor.class, JdbcOutboxStore.class, JtaOutboxPublisher.class,
                OutboxRuntime.class, HttpDelivery.class, KafkaDelivery.class);
    }
}
