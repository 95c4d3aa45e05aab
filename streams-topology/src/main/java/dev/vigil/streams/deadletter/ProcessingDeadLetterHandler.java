package dev.vigil.streams.deadletter;

import dev.vigil.schemas.contract.DeadLetter;
import io.micrometer.core.instrument.Counter;
import java.util.Map;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a processor throws for one record (KIP-1033). A record that makes Vigil's own code throw — a bug, or input
 * the contracts let through and a processor cannot take — goes to {@code vigil.dead-letter} with its coordinates
 * (source topic, partition, offset, the processor node and task) and its raw source bytes, and processing resumes
 * with the next record: otherwise the task fails, its thread is replaced, the same record is replayed from the last
 * commit and fails again, for ever, and every monitor behind that partition goes blind. The dead-letter record is
 * produced inside the task's transaction, like the deserialisation handler's.
 *
 * <p>Kafka's and Kafka Streams' own exceptions ({@link KafkaException}: a state store that cannot be written, a
 * producer or a task migrated away) are no fault of the record: they fail the task as before, and the thread's
 * fate is decided by the client's uncaught-exception handler.
 */
public final class ProcessingDeadLetterHandler implements ProcessingExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessingDeadLetterHandler.class);

    private DeadLetterSink sink = DeadLetterSink.unconfigured();

    @Override
    public void configure(Map<String, ?> configs) {
        sink = DeadLetterSink.of(
                configs,
                Counter.builder("vigil.streams.processing.dead.letter.records")
                        .description("records a processor failed on, sent to the dead-letter topic"));
    }

    @Override
    public Response handleError(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
        if (exception instanceof KafkaException) {
            LOG.error(
                    "processor {} of task {} failed on topic={} partition={} offset={} with a Kafka error; the task"
                            + " fails",
                    context.processorNodeId(),
                    context.taskId(),
                    context.topic(),
                    context.partition(),
                    context.offset(),
                    exception);
            return Response.fail();
        }
        String reason =
                "processor " + context.processorNodeId() + " of task " + context.taskId() + " failed: " + exception;
        DeadLetter letter = DeadLetter.poison(
                DeadLetters.SOURCE,
                reason,
                exception,
                context.topic(),
                context.partition(),
                context.offset(),
                context.sourceRawKey(),
                context.sourceRawValue(),
                System.currentTimeMillis());
        // the stack trace is for the developer who fixes it; the record's content stays in the dead-letter topic
        LOG.error(
                "dead-lettering record topic={} partition={} offset={}: processor {} of task {} failed",
                context.topic(),
                context.partition(),
                context.offset(),
                context.processorNodeId(),
                context.taskId(),
                exception);
        return Response.resume(sink.send(context.sourceRawKey(), letter));
    }
}
