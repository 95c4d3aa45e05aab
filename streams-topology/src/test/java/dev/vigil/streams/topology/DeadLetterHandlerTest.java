package dev.vigil.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.streams.deadletter.DeadLetterHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

class DeadLetterHandlerTest {

    @Test
    void poisonBytesBecomeADeadLetterEnvelopeAndProcessingResumes() {
        var registry = new SimpleMeterRegistry();
        var handler = new DeadLetterHandler();
        handler.configure(Map.of(DeadLetterHandler.TOPIC_CONFIG, "dlq", DeadLetterHandler.REGISTRY_CONFIG, registry));
        byte[] value = "{oops".getBytes(StandardCharsets.UTF_8);
        var record =
                new ConsumerRecord<>("vigil.probe-results", 4, 17L, "shop".getBytes(StandardCharsets.UTF_8), value);
        Exception error;
        try {
            VigilSerdes.probeResult().deserialize("vigil.probe-results", value);
            throw new AssertionError("expected a poison record");
        } catch (RuntimeException e) {
            error = e;
        }

        var response = handler.handleError(context(), record, error);

        assertThat(response.result()).isEqualTo(DeserializationExceptionHandler.Result.RESUME);
        assertThat(response.deadLetterQueueRecords()).singleElement().satisfies(pr -> {
            assertThat(pr.topic()).isEqualTo("dlq");
            assertThat(new String(pr.key(), StandardCharsets.UTF_8)).isEqualTo("shop");
            DeadLetter letter = Json.read(pr.value(), DeadLetter.class);
            assertThat(letter.topic()).isEqualTo("vigil.probe-results");
            assertThat(letter.partition()).isEqualTo(4);
            assertThat(letter.offset()).isEqualTo(17L);
            assertThat(letter.payload()).isEqualTo("{oops");
            assertThat(letter.reason()).startsWith("cannot deserialise: invalid ProbeResult");
            assertThat(letter.key()).isEqualTo("shop");
        });
        assertThat(registry.get("vigil.streams.dead.letter.records").counter().count())
                .isEqualTo(1.0);
    }

    private static ErrorHandlerContext context() {
        return new ErrorHandlerContext() {
            public String topic() {
                return "vigil.probe-results";
            }

            public int partition() {
                return 4;
            }

            public long offset() {
                return 17L;
            }

            public org.apache.kafka.common.header.Headers headers() {
                return new RecordHeaders();
            }

            public String processorNodeId() {
                return "probe-results-source";
            }

            public TaskId taskId() {
                return new TaskId(0, 4);
            }

            public long timestamp() {
                return 0L;
            }

            public byte[] sourceRawKey() {
                return null;
            }

            public byte[] sourceRawValue() {
                return null;
            }
        };
    }
}
