package org.eeoutbox.cdi.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.UserTransaction;
import java.lang.reflect.Proxy;
import java.lang.reflect.Type;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.function.Predicate;
import javax.sql.DataSource;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.config.Configuration;
import org.eeoutbox.config.OutboxConfigurationException;
import org.eeoutbox.engine.BatchReport;
import org.eeoutbox.engine.OutboxListener;
import org.eeoutbox.spi.DeliveryTracing;
import org.eeoutbox.testkit.TestDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The CDI wiring without a server: the assembly builds the components from the settings and the
 * container's resources (here a real PostgreSQL and plain executors), and starts nothing until
 * asked.
 */
class OutboxAssemblyTest {

    private final Map<String, String> properties = new HashMap<>(Map.of("outbox.datasource", "java:app/jdbc/test",
            "outbox.schema.create", "true", "outbox.http.service.orders.url", "http://127.0.0.1:9/hooks"));
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final ScheduledExecutorService scheduled = Executors.newSingleThreadScheduledExecutor();
    private final List<String> scheduledTasks = new ArrayList<>();
    private final List<MessageDeliverer> applicationDeliverers = new ArrayList<>();
    private OutboxComponents components;

    @AfterEach
    void stop() {
        if (components != null) {
            components.stop();
        }
        executor.shutdownNow();
        scheduled.shutdownNow();
    }

    private OutboxComponents build() {
        Configuration configuration = Configuration.of(properties);
        DeploymentConfiguration deployment = DeploymentConfiguration.read(configuration,
                getClass().getClassLoader(), new ApplicationBeans());
        configuration.throwIfInvalid();
        components = new OutboxAssembly(deployment.settings(), configuration, deployment.transports(),
                new Resources(), new RequiresNewTransactions(), new OutboxAssembly.ApplicationBeanSource() {
                    @Override
                    @SuppressWarnings("unchecked")
                    public <T> List<T> beans(Class<T> as, Predicate<Type> type) {
                        return as == MessageDeliverer.class ? (List<T>) applicationDeliverers : List.of();
                    }
                }, new OutboxListener() {
                    @Override
                    public void onBatchCommitted(BatchReport report) {
                    }
                }, () -> "tester", action -> { }, DeliveryTracing.NONE, Clock.systemUTC()).build();
        return components;
    }

    @Test
    void buildingSchedulesNothingAndStartSchedulesTheProcessorAndThePurger() {
        OutboxComponents built = build();

        assertEquals(List.of(), scheduledTasks);
        assertEquals("postgresql", built.databaseName());
        assertEquals(List.of("http"), built.deliverers().stream().map(MessageDeliverer::deliveryType).toList());

        built.start();

        assertEquals(List.of("every 1000 ms after 0 ms", "every 300000 ms after 300000 ms"), scheduledTasks,
                "the processor at once and every outbox.processor.interval, the purger every outbox.purger.interval");
    }

    @Test
    void aDisabledProcessorOrPurgerIsNeitherBuiltNorScheduled() {
        properties.put("outbox.processor.enabled", "false");
        properties.put("outbox.purger.enabled", "false");

        OutboxComponents built = build();
        built.start();

        assertTrue(built.processor().isEmpty());
        assertTrue(built.purger().isEmpty());
        assertEquals(List.of(), scheduledTasks);
    }

    @Test
    void theApplicationsDeliverersServeNextToTheTransports() {
        applicationDeliverers.add(new MessageDeliverer() {
            @Override
            public String deliveryType() {
                return "sms";
            }

            @Override
            public DeliveryResult deliver(OutboxEntry entry) {
                return DeliveryResult.delivered();
            }
        });

        assertEquals(List.of("sms", "http"), build().deliverers().stream().map(MessageDeliverer::deliveryType).toList());
    }

    @Test
    void theEjbTimerTriggerIsTakenFromTheResourcesWhenConfigured() {
        properties.put("outbox.trigger", "ejb-timer");

        build().start();

        assertEquals(List.of("ejb:processor", "ejb:purger"), scheduledTasks);
    }

    @Test
    void aTransactionTimeoutShorterThanAnHttpBatchFailsNamingTheProperty() {
        properties.put("outbox.processor.transaction-timeout", "5s");
        properties.put("outbox.processor.claim-mode.http", "lock");

        OutboxConfigurationException e = assertThrows(OutboxConfigurationException.class, this::build);

        assertTrue(e.getMessage().contains("outbox.processor.transaction-timeout=PT5S is too short: a batch of 100 "
                + "'http' deliveries may take up to"), e.getMessage());
    }

    @Test
    void webhooksAreLeasedUnlessAClaimModeSaysOtherwise() {
        properties.put("outbox.processor.transaction-timeout", "5s");
        assertTrue(build().processor().isPresent(), "the http transport leases by default: the JTA timeout does "
                + "not bound its batches");

        components.stop();
        components = null;
        properties.put("outbox.processor.claim-mode", "lock");
        OutboxConfigurationException e = assertThrows(OutboxConfigurationException.class, this::build);
        assertTrue(e.getMessage().contains("outbox.processor.transaction-timeout=PT5S is too short: a batch of 100 "
                + "'http' deliveries may take up to PT15S (claim mode lock)"), e.getMessage());
    }

    @Test
    void inLeaseModeTheLeaseAndNotTheTransactionTimeoutBoundsAnHttpBatch() {
        properties.put("outbox.processor.transaction-timeout", "5s");
        properties.put("outbox.processor.claim-mode.http", "lease");

        assertTrue(build().processor().isPresent(), "no transaction spans the deliveries of a lease-mode batch");

        components.stop();
        components = null;
        properties.put("outbox.processor.lease", "20s");
        OutboxConfigurationException e = assertThrows(OutboxConfigurationException.class, this::build);
        assertTrue(e.getMessage().contains("outbox.processor.lease=PT20S is too short: a batch of 100 'http' "
                + "deliveries may take up to PT15S and lease mode keeps two batches per worker in flight, so a lease "
                + "must exceed PT30S; raise outbox.processor.lease"), e.getMessage());
    }

    @Test
    void aClaimModeForADeliveryTypeNobodyHandlesFailsNamingTheKey() {
        properties.put("outbox.processor.claim-mode.htp", "lease");

        OutboxConfigurationException e = assertThrows(OutboxConfigurationException.class, this::build);

        assertTrue(e.getMessage().contains("outbox.processor.claim-mode.htp names delivery type 'htp', which no "
                + "transport or deliverer handles; the delivery types are [http]"), e.getMessage());
    }

    @Test
    void stopCancelsTheSchedulesAndIsIdempotent() {
        OutboxComponents built = build();
        built.start();

        built.stop();
        built.stop();

        assertFalse(scheduled.isShutdown(), "the container's executors are not the outbox's to shut down");
        assertSame(built, components);
    }

    /** The container's resources: a real database, plain executors, triggers that record what they schedule. */
    private final class Resources implements ContainerResources {

        @Override
        public DataSource dataSource(String name) {
            assertEquals("java:app/jdbc/test", name);
            return TestDatabases.postgresql().dataSource();
        }

        @Override
        public ExecutorService managedExecutor(String name) {
            assertEquals("java:comp/DefaultManagedExecutorService", name);
            return executor;
        }

        @Override
        public ScheduledExecutorService managedScheduledExecutor(String name) {
            assertEquals("java:comp/DefaultManagedScheduledExecutorService", name);
            return recording(scheduled);
        }

        @Override
        public ThreadFactory managedThreadFactory() {
            return Executors.defaultThreadFactory();
        }

        @Override
        public OutboxTrigger ejbTimerTrigger() {
            return (name, initialDelay, interval, tick) -> {
                scheduledTasks.add("ejb:" + name);
                return () -> { };
            };
        }

        @Override
        public TransactionSynchronizationRegistry transactionRegistry() {
            return unused(TransactionSynchronizationRegistry.class);
        }

        @Override
        public UserTransaction userTransaction() {
            return unused(UserTransaction.class);
        }

        private ScheduledExecutorService recording(ScheduledExecutorService target) {
            return (ScheduledExecutorService) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {ScheduledExecutorService.class}, (proxy, method, args) -> {
                        if (method.getName().equals("scheduleWithFixedDelay")) {
                            scheduledTasks.add("every " + args[2] + " ms after " + args[1] + " ms");
                        }
                        return method.invoke(target, args);
                    });
        }
    }

    private static <T> T unused(Class<T> type) {
        return type.cast(Proxy.newProxyInstance(OutboxAssemblyTest.class.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> {
                    throw new UnsupportedOperationException(type.getSimpleName() + "." + method.getName());
                }));
    }
}
