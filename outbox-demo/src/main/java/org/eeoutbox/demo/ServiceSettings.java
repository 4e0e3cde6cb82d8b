package org.eeoutbox.demo;

import java.util.Map;
import java.util.TreeMap;

/**
 * The order service's configuration for one run, as Payara Micro system properties
 * ({@code --systemproperties}): they override the WAR's {@code microprofile-config.properties},
 * and {@code @DataSourceDefinition} sees them. Used by {@code ./demo} and by
 * {@code outbox-reliability}.
 *
 * <p>Stateless and thread-safe; nothing here throws.
 */
public final class ServiceSettings {

    /** The webhook path of the example's {@code orders.webhook.path}. */
    public static final String WEBHOOK_PATH = "/hooks/orders";

    private ServiceSettings() {
    }

    /**
     * Returns the settings for a service that uses {@code database}, delivers webhooks to
     * {@code webhooksUrl} and publishes to {@code topic} on {@code kafkaBootstrap}; a new,
     * modifiable map, sorted by key.
     *
     * @param webhooksUrl the base URL of the logical HTTP service {@code webhooks}
     */
    public static Map<String, String> of(DemoDatabase database, String webhooksUrl, String kafkaBootstrap,
            String topic) {
        Map<String, String> settings = new TreeMap<>();
        settings.put("orders.db.datasource", database.dataSourceClass());
        settings.put("orders.db.url", database.payaraUrl());
        settings.put("orders.db.user", database.payaraUser());
        settings.put("orders.db.password", database.payaraPassword());
        settings.put("outbox.http.service.webhooks.url", webhooksUrl);
        settings.put("outbox.kafka.producer.bootstrap.servers", kafkaBootstrap);
        settings.put("orders.webhook.path", WEBHOOK_PATH);
        settings.put("orders.topic", topic);
        // A short backoff, so that --chaos shows the recovery within seconds.
        settings.put("outbox.processor.initial-backoff", "1s");
        settings.put("outbox.processor.max-backoff", "5s");
        // Four workers: the demo places orders as fast as the service takes them; one worker (the
        // default) falls behind on two shared cores, and the latency grows with the backlog.
        settings.put("outbox.processor.concurrency", "4");
        return settings;
    }

    /**
     * Returns the settings that publish each order to the feed {@code channel} too and serve it
     * at {@code GET /feeds/<channel>} (the example's {@code OrderFeedAccess} lets anyone read it).
     */
    public static Map<String, String> feed(String channel) {
        return Map.of("orders.feed.channel", channel, "outbox.feed.sse.enabled", "true");
    }
}
