package org.eeoutbox.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.spi.DeliveryTracing;
import org.eeoutbox.spi.DeliveryTracing.DeliverySpan;

/**
 * Delivers a batch inside one span per entry: opens each entry's delivery span, hands the
 * deliverer the entries carrying their span's context (which it sends in its headers), and ends
 * each span with the entry's result. Stateless; thread-safe when the tracing is.
 */
final class TracedDelivery {

    private TracedDelivery() {
    }

    /**
     * Returns {@code deliver}'s results for {@code batch}, one per entry in input order, as
     * {@code deliver} must. With {@link DeliveryTracing#NONE} it calls {@code deliver} with the
     * batch as it is and nothing else.
     */
    static List<DeliveryResult> deliver(DeliveryTracing tracing, List<OutboxEntry> batch,
                                        Function<List<OutboxEntry>, List<DeliveryResult>> deliver) {
        if (tracing == DeliveryTracing.NONE) {
            return deliver.apply(batch);
        }
        List<DeliverySpan> spans = new ArrayList<>(batch.size());
        List<OutboxEntry> traced = new ArrayList<>(batch.size());
        for (OutboxEntry entry : batch) {
            DeliverySpan span = tracing.startDelivery(entry);
            spans.add(span);
            traced.add(span.context() == null ? entry : entry.withTraceContext(span.context()));
        }
        List<DeliveryResult> results = null;
        try {
            results = deliver.apply(traced);
            return results;
        } finally {
            for (int i = 0; i < spans.size(); i++) {
                spans.get(i).end(results == null ? null : results.get(i));
            }
        }
    }
}
