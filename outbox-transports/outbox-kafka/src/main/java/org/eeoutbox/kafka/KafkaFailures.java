package org.eeoutbox.kafka;

import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.errors.UnsupportedVersionException;

/**
 * How {@link KafkaMessageDeliverer} classifies a Kafka failure (the table in its class
 * documentation), and the reason it records: pure functions of the exception.
 *
 * <p>Stateless and thread-safe; no method throws for a non-null failure.
 */
final class KafkaFailures {

    /** How a failure is classified. */
    enum Kind {
        RETRIABLE, PERMANENT, PRODUCER_BROKEN
    }

    private KafkaFailures() {
    }

    /** The classification of one failure, most specific first. */
    static Kind kind(Throwable failure) {
        if (failure instanceof InterruptException || failure instanceof InterruptedException) {
            return Kind.RETRIABLE;
        }
        if (failure instanceof ProducerFencedException || failure instanceof FencedInstanceIdException
                || failure instanceof AuthenticationException || failure instanceof ClusterAuthorizationException
                || failure instanceof TransactionalIdAuthorizationException
                || failure instanceof UnsupportedVersionException || failure instanceof IllegalStateException) {
            return Kind.PRODUCER_BROKEN;
        }
        if (failure instanceof RecordTooLargeException || failure instanceof RecordBatchTooLargeException
                || failure instanceof InvalidTopicException || failure instanceof InvalidRecordException
                || failure instanceof SerializationException || failure instanceof AuthorizationException) {
            return Kind.PERMANENT;
        }
        if (failure instanceof RetriableException) {
            return Kind.RETRIABLE;
        }
        if (failure instanceof KafkaException && !(failure instanceof ApiException)) {
            // Kafka wraps a fatal producer error, and "producer closed while send in progress",
            // in a plain KafkaException; every later call fails the same way.
            return Kind.PRODUCER_BROKEN;
        }
        return Kind.RETRIABLE;
    }

    /**
     * Whether a failure inside {@code send()} holds for every record of the topic in the batch:
     * no metadata within {@code max.block.ms}, an invalid topic, a topic not authorized.
     * {@code failure} may be null (then false).
     */
    static boolean failsTopic(Throwable failure) {
        return failure instanceof TimeoutException || failure instanceof InvalidTopicException
                || failure instanceof TopicAuthorizationException;
    }

    /**
     * The reason recorded for a failure: {@code Kafka <SimpleName>: <message>}, then
     * {@code (caused by <SimpleName>: <message>)} when it has a cause, then {@code [topic <topic>]}
     * when {@code topic} is not null.
     */
    static String reason(Throwable failure, String topic) {
        StringBuilder reason = new StringBuilder("Kafka ").append(failure.getClass().getSimpleName());
        if (failure.getMessage() != null) {
            reason.append(": ").append(failure.getMessage());
        }
        Throwable cause = failure.getCause();
        if (cause != null && cause != failure) {
            reason.append(" (caused by ").append(cause.getClass().getSimpleName());
            if (cause.getMessage() != null) {
                reason.append(": ").append(cause.getMessage());
            }
            reason.append(')');
        }
        if (topic != null) {
            reason.append(" [topic ").append(topic).append(']');
        }
        return reason.toString();
    }
}
