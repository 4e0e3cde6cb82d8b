package org.eeoutbox.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eeoutbox.DeliveryResult;
import org.eeoutbox.OutboxEntry;
import org.eeoutbox.OutboxHeaders;
import org.eeoutbox.TraceContext;
import org.eeoutbox.spi.CloudEvent;

/**
 * One {@link KafkaMessageDeliverer#deliverBatch} call and its working state: sends a record per
 * entry, flushes once, waits for each acknowledgement until one deadline, and classifies each
 * outcome with {@link KafkaFailures} ("A batch" in the deliverer's class documentation).
 *
 * <p>Confined to the calling thread and used once. {@link #run} never throws; when the thread
 * was interrupted it returns with the interrupt flag set again.
 */
final class KafkaBatch {

    private static final System.Logger LOG = System.getLogger(KafkaMessageDeliverer.class.getName());

    private final KafkaMessageDeliverer deliverer;
    private final Producer<String, String> producer;
    private final Duration sendTimeout;
    private final boolean flush;
    private final List<OutboxEntry> entries;
    private final DeliveryResult[] results;
    private final Future<RecordMetadata>[] futures;
    private final String[] topics;
    /** The media type of a CloudEvent's data: the outbox's payloads are JSON. */
    private static final String JSON = "application/json";
    private static final String CONTENT_TYPE = "content-type";

    private final long deadline;
    /** Outcomes of topics whose first record failed inside send(), reused for their other records. */
    private final Map<String, DeliveryResult> topicOutcomes = new HashMap<>();
    /** The reason the producer is broken, once a record found it so; later records are postponed. */
    private String broken;
    /** The metadata text last read in this batch, and its delivery. */
    private String lastMetadata;
    private KafkaDelivery lastDelivery;
    private boolean interrupted;
    private int sent;

    @SuppressWarnings("unchecked")
    KafkaBatch(KafkaMessageDeliverer deliverer, Producer<String, String> producer, Duration sendTimeout, boolean flush,
            List<OutboxEntry> entries) {
        this.deliverer = deliverer;
        this.producer = producer;
        this.sendTimeout = sendTimeout;
        this.flush = flush;
        this.entries = entries;
        this.results = new DeliveryResult[entries.size()];
        this.futures = (Future<RecordMetadata>[]) new Future<?>[entries.size()];
        this.topics = new String[entries.size()];
        this.deadline = System.nanoTime() + sendTimeout.toNanos();
    }

    /** Delivers the entries; returns one result per entry, in input order. */
    List<DeliveryResult> run() {
        try {
            for (int i = 0; i < entries.size(); i++) {
                send(i, entries.get(i));
            }
            if (flush && sent > 0 && !interrupted) {
                try {
                    producer.flush();
                } catch (InterruptException e) {
                    interrupted();
                } catch (RuntimeException e) {
                    // The waits below classify every record; a failing flush is only noted here.
                    LOG.log(System.Logger.Level.DEBUG, "Kafka producer flush failed", e);
                }
            }
            for (int i = 0; i < entries.size(); i++) {
                if (futures[i] != null) {
                    results[i] = await(futures[i], topics[i]);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        for (int i = 0; i < results.length; i++) {
            if (results[i] == null) {
                // Unreachable by design; a guard so that the contract (one result per entry) holds.
                results[i] = DeliveryResult.retriable("Kafka delivery produced no outcome");
            }
        }
        return List.of(results);
    }

    /** Sends entry {@code i}, or decides its outcome at once. */
    private void send(int i, OutboxEntry entry) {
        if (broken != null) {
            results[i] = deliverer.postponed(broken);
            return;
        }
        if (interrupted) {
            results[i] = DeliveryResult.retriable("Kafka send not attempted: the thread was interrupted");
            return;
        }
        if (entry == null) {
            results[i] = DeliveryResult.permanent("the entry is null");
            return;
        }
        KafkaDelivery delivery;
        try {
            if (!KafkaDelivery.DELIVERY_TYPE.equals(entry.deliveryType())) {
                results[i] = DeliveryResult.permanent("delivery type \"" + entry.deliveryType()
                        + "\" is not " + KafkaDelivery.DELIVERY_TYPE);
                return;
            }
            delivery = delivery(entry.deliveryMetadata());
        } catch (RuntimeException e) {
            results[i] = DeliveryResult.permanent("unreadable Kafka delivery metadata: " + e.getMessage());
            return;
        }
        String topic = delivery.topic();
        DeliveryResult topicOutcome = topicOutcomes.get(topic);
        if (topicOutcome != null) {
            results[i] = topicOutcome;
            return;
        }
        if (System.nanoTime() - deadline >= 0) {
            results[i] = DeliveryResult.retriable("Kafka send not attempted: the send timeout of " + sendTimeout
                    + " passed before the record's turn (topic " + topic + ")");
            return;
        }
        try {
            Future<RecordMetadata> future = producer.send(record(entry, delivery));
            sent++;
            if (future.isDone()) {
                // Done at once: send() failed before the record reached the buffer (no metadata
                // within max.block.ms, buffer exhausted, topic invalid or not authorized, too large).
                DeliveryResult result = await(future, topic);
                results[i] = result;
                if (KafkaFailures.failsTopic(failure(future))) {
                    topicOutcomes.put(topic, result);
                }
            } else {
                futures[i] = future;
                topics[i] = topic;
            }
        } catch (RuntimeException e) {
            if (e instanceof InterruptException) {
                interrupted();
            }
            results[i] = classify(e, topic);
        }
    }

    /**
     * Reads an entry's delivery from its metadata, reusing the last one read when the text is
     * the same: a batch's entries usually share one metadata text.
     *
     * @throws IllegalArgumentException if the metadata cannot be read, as
     *                                  {@link KafkaDelivery#fromMetadataJson} says
     */
    private KafkaDelivery delivery(String metadataJson) {
        if (!metadataJson.equals(lastMetadata)) {
            lastDelivery = KafkaDelivery.fromMetadataJson(metadataJson);
            lastMetadata = metadataJson;
        }
        return lastDelivery;
    }

    private ProducerRecord<String, String> record(OutboxEntry entry, KafkaDelivery delivery) {
        RecordHeaders headers = new RecordHeaders();
        for (KafkaDelivery.Header header : delivery.headers()) {
            headers.add(header.name(), header.value().getBytes(StandardCharsets.UTF_8));
        }
        TraceContext trace = entry.traceContext();
        if (trace != null) {
            // The delivery span's context replaces any the delivery carries: a consumer sees one trace.
            headers.remove(OutboxHeaders.TRACEPARENT);
            headers.remove(OutboxHeaders.TRACESTATE);
            headers.add(OutboxHeaders.TRACEPARENT, trace.traceparent().getBytes(StandardCharsets.UTF_8));
            if (trace.tracestate() != null) {
                headers.add(OutboxHeaders.TRACESTATE, trace.tracestate().getBytes(StandardCharsets.UTF_8));
            }
        }
        String value = entry.payload();
        CloudEvent.Mode mode = delivery.findCloudEvents().orElse(null);
        if (mode != null) {
            CloudEvent event = CloudEvent.of(entry, deliverer.cloudEventsSource(), JSON);
            if (mode == CloudEvent.Mode.STRUCTURED) {
                value = event.structuredJson();
                headers.add(CONTENT_TYPE, CloudEvent.STRUCTURED_CONTENT_TYPE.getBytes(StandardCharsets.UTF_8));
            } else {
                // The Kafka binding: ce_ attributes, the data's media type in content-type.
                event.attributes().forEach((name, attribute) ->
                        headers.add("ce_" + name, attribute.getBytes(StandardCharsets.UTF_8)));
                headers.add(CONTENT_TYPE, JSON.getBytes(StandardCharsets.UTF_8));
            }
        }
        // Last, so that they override user headers of the same names for lastHeader() readers.
        headers.add(OutboxHeaders.MESSAGE_TYPE, entry.messageType().getBytes(StandardCharsets.UTF_8));
        headers.add(OutboxHeaders.ATTEMPT, Integer.toString(entry.attempts() + 1).getBytes(StandardCharsets.UTF_8));
        headers.add(OutboxHeaders.OUTBOX_ID, entry.id().toString().getBytes(StandardCharsets.UTF_8));
        if (entry.orderingKey() != null) {
            headers.add(OutboxHeaders.ORDERING_KEY, entry.orderingKey().getBytes(StandardCharsets.UTF_8));
            headers.add(OutboxHeaders.ORDERING_SEQ, entry.orderingSeq().toString().getBytes(StandardCharsets.UTF_8));
        }
        // Without a key of its own, the record takes the ordering key: one key, one partition, in order.
        String key = delivery.findKey().orElse(entry.orderingKey());
        return new ProducerRecord<>(delivery.topic(), null, key, value, headers);
    }

    /** Waits for one record's acknowledgement until the batch deadline and classifies the outcome. */
    private DeliveryResult await(Future<RecordMetadata> future, String topic) {
        long remaining = interrupted ? 0 : Math.max(0, deadline - System.nanoTime());
        try {
            future.get(remaining, TimeUnit.NANOSECONDS);
            deliverer.producerDelivered();
            return DeliveryResult.delivered();
        } catch (ExecutionException e) {
            return classify(e.getCause() == null ? e : e.getCause(), topic);
        } catch (java.util.concurrent.TimeoutException e) {
            return DeliveryResult.retriable("no acknowledgement from Kafka within the send timeout of " + sendTimeout
                    + " (topic " + topic + ")");
        } catch (InterruptedException e) {
            interrupted();
            return DeliveryResult.retriable("interrupted while waiting for Kafka's acknowledgement (topic " + topic + ")");
        } catch (RuntimeException e) {
            return classify(e, topic);
        }
    }

    /** Returns the exception a done future failed with, or {@code null}. */
    private static Throwable failure(Future<RecordMetadata> future) {
        if (!future.isDone()) {
            return null;
        }
        boolean interrupted = Thread.interrupted();
        try {
            future.get(0, TimeUnit.NANOSECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            return e;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Classifies a failure; see the table in the deliverer's class documentation. */
    private DeliveryResult classify(Throwable failure, String topic) {
        String reason = KafkaFailures.reason(failure, topic);
        switch (KafkaFailures.kind(failure)) {
            case PERMANENT:
                return DeliveryResult.permanent(reason);
            case PRODUCER_BROKEN:
                if (broken == null) {
                    broken = reason;
                }
                deliverer.producerBroken(failure);
                return deliverer.postponed(reason);
            default:
                return DeliveryResult.retriable(reason);
        }
    }

    /** Notes an interruption and clears the flag, so that done futures can still be read. */
    private void interrupted() {
        interrupted = true;
        Thread.interrupted();
    }
}
