package dev.vigil.streams.deadletter;

import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.topic.Topics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends records whose bytes cannot be read as their contract to {@code vigil.dead-letter} (a
 * {@link DeadLetter} envelope with the reason) and lets processing continue. The dead-letter record is
 * produced by Streams inside the task's transaction, so under exactly_once_v2 it is written exactly once
 * together with the consumed offset.
 */
public final class DeadLetterHandler implements DeserializationExceptionHandler {
    /** Config key naming the dead-letter topic (default {@link Topics#DEAD_LETTER}). */
    public static final String TOPIC_CONFIG = "vigil.dead-letter.topic";
    /** Config key whose value is a Micrometer {@link MeterRegistry} to count into (optional). */
    public static final String REGISTRY_CONFIG = "vigil.metrics.registry";

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterHandler.class);

    private DeadLetterSink sink = DeadLetterSink.unconfigured();

    @Override
    public void configure(Map<String, ?> configs) {
        sink = DeadLetterSink.of(
                configs,
                Counter.builder("vigil.streams.dead.letter.records")
                        .description("undeserialisable records sent to the dead-letter topic"));
    }

    @Override
    public Response handleError(
            ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record, Exception exception) {
        DeadLetter letter = DeadLetter.poison(
                DeadLetters.SOURCE,
                "cannot deserialise: " + exception.getMessage(),
                exception,
                context.topic(),
                context.partition(),
                context.offset(),
                record.key(),
                record.value(),
                System.currentTimeMillis());
        LOG.warn(
                "dead-lettering record topic={} partition={} offset={}: {}",
                context.topic(),
                context.partition(),
                context.offset(),
                letter.reason());
        return Response.resume(sink.send(record.key(), letter));
    }
}
