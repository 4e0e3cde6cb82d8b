package org.eeoutbox.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.eeoutbox.OutboxHeaders;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.RetryPolicy;
import org.eeoutbox.engine.OutboxListener;
import org.eeoutbox.engine.OutboxProcessor;
import org.eeoutbox.engine.ProcessorSettings;
import org.eeoutbox.engine.StoreOutboxPublisher;
import org.eeoutbox.jdbc.DataSourceTransactions;
import org.eeoutbox.jdbc.DatabaseCheck;
import org.eeoutbox.jdbc.JdbcOutboxStore;
import org.eeoutbox.testkit.Await;
import org.eeoutbox.testkit.HttpReceiver;
import org.eeoutbox.testkit.KeyedLoad;
import org.eeoutbox.testkit.ReceivedRequest;
import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The engine, the real PostgreSQL store and this transport together, against a real HTTP server. */
class HttpEndToEndTest {

    private static final int MESSAGES = 5_000;

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void fiveThousandMessagesPublishedInTransactionsAreEachDeliveredOnceOverHttp() throws Exception {
        TestDatabase database = TestDatabases.postgresql();
        database.dropOutboxTables();
        DataSourceTransactions transactions = new DataSourceTransactions(database.dataSource());
        JdbcOutboxStore store = new JdbcOutboxStore(transactions, DatabaseCheck.forLocalTransactions(database.dataSource(), true));
        StoreOutboxPublisher publisher = new StoreOutboxPublisher(store, 1024 * 1024, Clock.systemUTC());
        ExecutorService executor = Executors.newFixedThreadPool(4);
        // A receiver failing 10 % of requests with 503 makes the retries part of the run.
        Map<String, Integer> accepted = new ConcurrentHashMap<>();
        try (HttpReceiver receiver = HttpReceiver.builder()
                     .respondWith(request -> ThreadLocalRandom.current().nextInt(10) == 0 ? 503 : 200)
                     .onAccepted(request -> accepted.merge(request.outboxId(), 1, Integer::sum))
                     .start();
             HttpMessageDeliverer http = new HttpMessageDeliverer(
                     HttpServiceResolver.of(Map.of("receiver", receiver.uri())), executor, Clock.systemUTC(),
                     HttpDelivererSettings.DEFAULT)) {
            List<UUID> published = new ArrayList<>();
            for (int start = 0; start < MESSAGES; start += 100) {
                int first = start;
                published.addAll(transactions.inNewTransaction(() -> {
                    List<UUID> ids = new ArrayList<>();
                    for (int i = first; i < first + 100; i++) {
                        ids.add(publisher.publish(new OutboxMessage("order.created", "{\"order\":" + i + "}"),
                                HttpDelivery.to("receiver").path("/hooks/orders").build()));
                    }
                    return ids;
                }));
            }
            OutboxProcessor processor = new OutboxProcessor(store, transactions, List.of(http),
                    ProcessorSettings.DEFAULT.withConcurrency(2)
                            .withRetryPolicy(new RetryPolicy(50, Duration.ZERO, 1.0, Duration.ZERO, 0.0)),
                    new OutboxListener() { }, executor, Clock.systemUTC());

            Await.drained(database, processor::drain, Duration.ofMinutes(4));

            int requests = 0;
            ReceivedRequest request;
            while ((request = receiver.poll()) != null) {
                requests++;
                assertEquals("/hooks/orders", request.path());
                assertEquals(List.of("application/json"), request.headers("Content-Type"));
            }
            assertEquals(published.stream().map(UUID::toString).collect(Collectors.toSet()), accepted.keySet(),
                    "every published id was accepted by the receiver, with the id publish returned");
            assertEquals(Set.of(1), Set.copyOf(accepted.values()), "no message was accepted twice");
            assertTrue(requests > MESSAGES, "some requests were answered 503 and retried");
            assertEquals(MESSAGES, database.queryForLong("SELECT COUNT(*) FROM outbox WHERE status = 'DELIVERED'"));
        } finally {
            executor.shutdownNow();
        }
    }

    /**
     * Issue 17's end-to-end test over HTTP: keys published by 8 threads in a random interleaving,
     * four workers, a receiver answering 503 to a fifth of the requests: each key's first
     * acceptances in sequence order, nothing lost. {@link KeyedLoad} sizes it (the 500 keys
     * x 100 messages on demand).
     */
    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void keyedMessagesArriveInEachKeysCommitOrderThroughRetriesAndFourWorkers() throws Exception {
        KeyedLoad load = KeyedLoad.fromSystemProperties(50, 20, 8);
        TestDatabase database = TestDatabases.postgresql();
        database.dropOutboxTables();
        DataSourceTransactions transactions = new DataSourceTransactions(database.dataSource());
        JdbcOutboxStore store = new JdbcOutboxStore(transactions, DatabaseCheck.forLocalTransactions(database.dataSource(), true));
        StoreOutboxPublisher publisher = new StoreOutboxPublisher(store, 1024 * 1024, Clock.systemUTC());
        ExecutorService executor = Executors.newFixedThreadPool(load.publishers());
        Map<String, List<Long>> firstAcceptances = new TreeMap<>();
        Set<String> accepted = new HashSet<>();
        try (HttpReceiver receiver = HttpReceiver.builder().recording(false)
                     .respondWith(request -> ThreadLocalRandom.current().nextInt(5) == 0 ? 503 : 200)
                     .onAccepted(request -> {
                         synchronized (firstAcceptances) {
                             if (accepted.add(request.outboxId())) {
                                 firstAcceptances.computeIfAbsent(request.header(OutboxHeaders.ORDERING_KEY),
                                         key -> new ArrayList<>()).add(Long.parseLong(request.header(OutboxHeaders.ORDERING_SEQ)));
                             }
                         }
                     })
                     .start();
             HttpMessageDeliverer http = new HttpMessageDeliverer(
                     HttpServiceResolver.of(Map.of("receiver", receiver.uri())), executor, Clock.systemUTC(),
                     HttpDelivererSettings.DEFAULT)) {
            load.publish(executor, key -> transactions.inNewTransaction(() -> publisher.publish(
                    new OutboxMessage("order.changed", "{}").withOrderingKey(key),
                    HttpDelivery.to("receiver").path("/hooks/orders").build())));
            OutboxProcessor processor = new OutboxProcessor(store, transactions, List.of(http),
                    ProcessorSettings.DEFAULT.withConcurrency(4)
                            .withRetryPolicy(new RetryPolicy(1000, Duration.ZERO, 1.0, Duration.ZERO, 0.0)),
                    new OutboxListener() { }, executor, Clock.systemUTC());

            Await.drained(database, processor::drain, Duration.ofMinutes(10));

            synchronized (firstAcceptances) {
                assertEquals(load.expectedSequences(), firstAcceptances, "each key's first acceptances in sequence order");
            }
        } finally {
            executor.shutdownNow();
        }
    }
}
