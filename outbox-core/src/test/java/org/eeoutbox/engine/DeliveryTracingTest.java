package org.eeoutbox.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxMessage;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.TraceContext;
import org.eeoutbox.spi.DeliveryTracing;
import org.eeoutbox.spi.TransactionRunner;
import org.junit.jupiter.api.Test;

/** How the publisher and the processor use a {@link DeliveryTracing}; the OpenTelemetry one is tested in outbox-cdi. */
class DeliveryTracingTest {

    private static final Instant NOW = Instant.parse("2026-12-02T12:00:00Z");
    private static final TraceContext PUBLISHED =
            new TraceContext("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "rojo=1");
    private static final TraceContext DELIVERY_SPAN =
            new TraceContext("00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01", "rojo=1");
    private static final TransactionRunner DIRECT = new TransactionRunner() {
        @Override
        public <T> T inNewTransaction(Supplier<T> work) {
            return work.get();
        }
    };

    private final InMemoryStore store = new InMemoryStore();
    private final RecordingTracing tracing = new RecordingTracing();

    @Test
    void publishStoresTheCurrentContextAndNoneWithoutATracer() {
        UUID traced = new StoreOutboxPublisher(store, 1024, Clock.systemUTC(), tracing)
                .publish(message(), StoreOutboxPublisherTest.DELIVERY);
        UUID untraced = new StoreOutboxPublisher(store, 1024, Clock.systemUTC())
                .publish(message(), StoreOutboxPublisherTest.DELIVERY);

        assertEquals(PUBLISHED, store.rows.get(traced).traceContext());
        assertNull(store.rows.get(untraced).traceContext());
    }

    @Test
    void theDelivererGetsTheDeliverySpansContextAndEachSpanEndsWithItsEntrysResult() {
        UUID delivered = store.insert(entry().withTraceContext(PUBLISHED));
        UUID failed = store.insert(entry());
        List<TraceContext> sent = new ArrayList<>();
        OutboxProcessor processor = processor(tracing, entry -> {
            sent.add(entry.traceContext());
            return entry.id().equals(failed) ? DeliveryResult.permanent("HTTP 404") : DeliveryResult.delivered();
        });

        processor.drain();

        assertEquals(List.of(DELIVERY_SPAN, DELIVERY_SPAN), sent);
        assertEquals(PUBLISHED, tracing.started.get(delivered), "the span starts from the stored context");
        assertNull(tracing.started.get(failed));
        assertEquals(DeliveryResult.delivered(), tracing.ended.get(delivered));
        assertEquals(DeliveryResult.permanent("HTTP 404"), tracing.ended.get(failed));
        assertEquals(PUBLISHED, store.rows.get(delivered).traceContext(), "the row keeps the published context");
        assertEquals(OutboxStatus.DELIVERED, store.rows.get(delivered).status());
    }

    @Test
    void withoutATracerTheDelivererGetsTheClaimedEntriesThemselves() {
        OutboxEntry stored = entry().withTraceContext(PUBLISHED);
        store.insert(stored);
        List<OutboxEntry> seen = new ArrayList<>();
        processor(DeliveryTracing.NONE, entry -> {
            seen.add(entry);
            return DeliveryResult.delivered();
        }).drain();

        assertEquals(1, seen.size());
        assertSame(PUBLISHED, seen.get(0).traceContext());
    }

    private OutboxProcessor processor(DeliveryTracing tracing,
                                      Function<OutboxEntry, DeliveryResult> outcome) {
        return new OutboxProcessor(store, DIRECT, List.of(OutboxProcessorTest.deliverer("http", outcome)),
                ProcessorSettings.DEFAULT, new OutboxListener() { }, Runnable::run, Clock.fixed(NOW, ZoneOffset.UTC),
                LeaseSettings.NONE, tracing);
    }

    private static OutboxEntry entry() {
        return OutboxEntry.create(UUID.randomUUID(), message(), StoreOutboxPublisherTest.DELIVERY, NOW);
    }

    private static OutboxMessage message() {
        return new OutboxMessage("t", "{}");
    }

    /** Hands out {@link #PUBLISHED} as the current context and {@link #DELIVERY_SPAN} as every span's. */
    private static final class RecordingTracing implements DeliveryTracing {
        final Map<UUID, TraceContext> started = new ConcurrentHashMap<>();
        final Map<UUID, DeliveryResult> ended = new ConcurrentHashMap<>();

        @Override
        public TraceContext current() {
            return PUBLISHED;
        }

        @Override
        public DeliverySpan startDelivery(OutboxEntry entry) {
            if (entry.traceContext() != null) {
                started.put(entry.id(), entry.traceContext());
            }
            return new DeliverySpan() {
                @Override
                public TraceContext context() {
                    return DELIVERY_SPAN;
                }

                @Override
                public void end(DeliveryResult result) {
                    ended.put(entry.id(), result);
                }
            };
        }
    }
}
