package org.eeoutbox.cdi.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.UUID;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.MessageDeliverer;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.TraceContext;
import org.eeoutbox.admin.OutboxAdmin;
import org.eeoutbox.engine.LeaseSettings;
import org.eeoutbox.engine.OutboxListener;
import org.eeoutbox.engine.OutboxProcessor;
import org.eeoutbox.engine.ProcessorSettings;
import org.eeoutbox.engine.StoreOutboxAdmin;
import org.eeoutbox.engine.StoreOutboxPublisher;
import org.eeoutbox.jdbc.DataSourceTransactions;
import org.eeoutbox.jdbc.DatabaseCheck;
import org.eeoutbox.jdbc.JdbcOutboxAdminStore;
import org.eeoutbox.jdbc.JdbcOutboxStore;
import org.eeoutbox.jdbc.SqlDialect;
import org.eeoutbox.spi.DeliveryTracing;
import org.eeoutbox.testkit.TestDatabase;
import org.eeoutbox.testkit.TestDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Publish inside a request's span, deliver, fail, replay through the operations API and deliver
 * again, on a real PostgreSQL with the real OpenTelemetry SDK: each attempt is a span of its own,
 * child of and linked to the request's span, and the deliverer sees that span's context.
 */
class TracedDeliveryOnDatabaseTest {

    private final SdkTracing sdkTracing = new SdkTracing();
    private final List<SpanData> finished = sdkTracing.finished;
    private final OpenTelemetry sdk = sdkTracing.openTelemetry;
    private final List<TraceContext> sent = new CopyOnWriteArrayList<>();

    @AfterEach
    void shutDown() {
        sdkTracing.close();
    }

    @Test
    void aReplayedEntryIsDeliveredInANewSpanOfThePublishingTrace() throws SQLException {
        TestDatabase database = TestDatabases.postgresql();
        database.dropOutboxTables();
        DataSourceTransactions transactions = new DataSourceTransactions(database.dataSource());
        SqlDialect dialect = DatabaseCheck.forLocalTransactions(database.dataSource(), true);
        JdbcOutboxStore store = new JdbcOutboxStore(transactions, dialect);
        DeliveryTracing tracing = OpenTelemetryTracing.recording(sdk);
        StoreOutboxPublisher publisher = new StoreOutboxPublisher(store, 1024, Clock.systemUTC(), tracing);
        OutboxAdmin admin = new StoreOutboxAdmin(new JdbcOutboxAdminStore(transactions, dialect), store, transactions,
                Clock.systemUTC(), () -> "tester", action -> { });
        OutboxProcessor processor = new OutboxProcessor(store, transactions, List.of(deliverer()),
                ProcessorSettings.DEFAULT, new OutboxListener() { }, Runnable::run, Clock.systemUTC(),
                LeaseSettings.NONE, tracing);

        Span request = sdk.getTracer("test").spanBuilder("POST /orders").startSpan();
        UUID id;
        try (Scope ignored = request.makeCurrent()) {
            id = transactions.inNewTransaction(
                    () -> publisher.publish(new OutboxMessage("order.created", "{}"), OpenTelemetryTracingTest.TEST_DELIVERY));
        } finally {
            request.end();
        }
        processor.drain();
        admin.replay(id);
        processor.drain();

        List<SpanData> deliveries = finished.stream().filter(span -> span.getName().equals("deliver test")).toList();
        assertEquals(2, deliveries.size(), "the first attempt and the replay");
        assertNotEquals(deliveries.get(0).getSpanId(), deliveries.get(1).getSpanId());
        for (SpanData delivery : deliveries) {
            assertEquals(request.getSpanContext().getTraceId(), delivery.getTraceId());
            assertEquals(request.getSpanContext().getSpanId(), delivery.getParentSpanId());
            assertEquals(request.getSpanContext().getSpanId(), delivery.getLinks().get(0).getSpanContext().getSpanId());
        }
        assertEquals(List.of(deliveries.get(0).getSpanId(), deliveries.get(1).getSpanId()),
                sent.stream().map(TraceContext::spanId).toList(), "the deliverer sends each attempt's own span");
        TraceContext stored = transactions.inNewTransaction(() -> store.find(id)).orElseThrow().traceContext();
        assertEquals(request.getSpanContext().getSpanId(), stored.spanId(), "the row keeps the request's context");
        assertEquals(request.getSpanContext().getTraceId(), stored.traceId());
    }

    /** Fails the first attempt for good, delivers after that, and records what it would send. */
    private MessageDeliverer deliverer() {
        return new MessageDeliverer() {
            @Override
            public String deliveryType() {
                return "test";
            }

            @Override
            public DeliveryResult deliver(OutboxEntry entry) {
                sent.add(entry.traceContext());
                return sent.size() == 1 ? DeliveryResult.permanent("HTTP 404") : DeliveryResult.delivered();
            }
        };
    }
}
