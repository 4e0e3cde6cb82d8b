package org.eeoutbox.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.NetworkException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;

/**
 * The pure parts of the classification: the reason text and which send() failures hold for a
 * whole topic. The kind of each failure is the table in {@code KafkaMessageDelivererTest}.
 */
class KafkaFailuresTest {

    @Test
    void reasonNamesTheExceptionAndItsMessage() {
        assertEquals("Kafka RecordTooLargeException: too large",
                KafkaFailures.reason(new RecordTooLargeException("too large"), null));
    }

    @Test
    void reasonWithoutMessageIsTheSimpleName() {
        assertEquals("Kafka IllegalStateException", KafkaFailures.reason(new IllegalStateException(), null));
    }

    @Test
    void reasonAppendsTheCauseAndTheTopic() {
        KafkaException failure = new KafkaException("fatal", new ProducerFencedException("fenced"));
        assertEquals("Kafka KafkaException: fatal (caused by ProducerFencedException: fenced) [topic orders]",
                KafkaFailures.reason(failure, "orders"));
    }

    @Test
    void reasonOmitsTheMessageOfACauseWithoutOne() {
        KafkaException failure = new KafkaException("closed", new IllegalStateException());
        assertEquals("Kafka KafkaException: closed (caused by IllegalStateException)",
                KafkaFailures.reason(failure, null));
    }

    @Test
    void missingMetadataInvalidTopicAndTopicAuthorizationFailTheTopic() {
        assertTrue(KafkaFailures.failsTopic(new TimeoutException("not present in metadata")));
        assertTrue(KafkaFailures.failsTopic(new InvalidTopicException("bad")));
        assertTrue(KafkaFailures.failsTopic(new TopicAuthorizationException("denied")));
    }

    @Test
    void otherFailuresAndNoFailureConcernOneRecord() {
        assertFalse(KafkaFailures.failsTopic(new RecordTooLargeException("too large")));
        assertFalse(KafkaFailures.failsTopic(new NetworkException("reset")));
        assertFalse(KafkaFailures.failsTopic(new IllegalStateException("closed")));
        assertFalse(KafkaFailures.failsTopic(null));
    }
}
