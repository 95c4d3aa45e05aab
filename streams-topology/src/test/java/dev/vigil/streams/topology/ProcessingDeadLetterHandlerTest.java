package dev.vigil.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.json.Json;
import dev.vigil.streams.deadletter.DeadLetterHandler;
import dev.vigil.streams.deadletter.DeadLetters;
import dev.vigil.streams.deadletter.ProcessingDeadLetterHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

class ProcessingDeadLetterHandlerTest {
    private static final String IN = "vigil.probe-results";
    private static final String OUT = "out";
    private static final String DLQ = "dlq";

    /** Upper-cases values; throws on "boom" as a processor with a bug would on the one input it cannot take. */
    static final class Fragile implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> context;

        @Override
        public void init(ProcessorContext<String, String> context) {
            this.context = context;
        }

        @Override
        public void process(Record<String, String> record) {
            if (record.value().equals("boom")) {
                throw new IllegalStateException("cannot handle " + record.value());
            }
            if (record.value().equals("store")) {
                throw new ProcessorStateException("store is gone");
            }
            context.forward(record.withValue(record.value().toUpperCase(java.util.Locale.ROOT)));
        }
    }

    private static TopologyTestDriver driver(SimpleMeterRegistry registry) {
        Topology t = new Topology();
        t.addSource(
                "results-source",
                Serdes.String().deserializer(),
                Serdes.String().deserializer(),
                IN);
        t.addProcessor("fragile", Fragile::new, "results-source");
        t.addSink("out-sink", OUT, Serdes.String().serializer(), Serdes.String().serializer(), "fragile");
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "dlq-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, ProcessingDeadLetterHandler.class);
        p.put(DeadLetterHandler.TOPIC_CONFIG, DLQ);
        p.put(DeadLetterHandler.REGISTRY_CONFIG, registry);
        return new TopologyTestDriver(t, p);
    }

    @Test
    void aRecordAProcessorThrowsOnIsDeadLetteredWithItsCoordinatesAndTheNextOneIsProcessed() {
        var registry = new SimpleMeterRegistry();
        try (TopologyTestDriver d = driver(registry)) {
            var in = d.createInputTopic(
                    IN, Serdes.String().serializer(), Serdes.String().serializer());
            var out = d.createOutputTopic(
                    OUT, Serdes.String().deserializer(), Serdes.String().deserializer());
            var dlq = d.createOutputTopic(
                    DLQ, Serdes.ByteArray().deserializer(), Serdes.ByteArray().deserializer());
            in.pipeInput("shop", "ok");
            in.pipeInput("blog", "boom");
            in.pipeInput("shop", "after");

            assertThat(out.readValuesToList()).containsExactly("OK", "AFTER");
            var letters = dlq.readKeyValuesToList();
            assertThat(letters).singleElement().satisfies(kv -> {
                assertThat(new String(kv.key, StandardCharsets.UTF_8)).isEqualTo("blog");
                DeadLetter letter = Json.read(kv.value, DeadLetter.class);
                assertThat(letter.source()).isEqualTo(DeadLetters.SOURCE);
                assertThat(letter.topic()).isEqualTo(IN);
                assertThat(letter.partition()).isEqualTo(0);
                assertThat(letter.offset()).isEqualTo(1L);
                assertThat(letter.payload()).isEqualTo("boom");
                assertThat(letter.key()).isEqualTo("blog");
                assertThat(letter.reason())
                        .contains("processor fragile of task 0_0 failed")
                        .contains("IllegalStateException: cannot handle boom");
            });
            assertThat(registry.get("vigil.streams.processing.dead.letter.records")
                            .counter()
                            .count())
                    .isEqualTo(1.0);
        }
    }

    @Test
    void kafkasOwnFailuresAreNoFaultOfTheRecordAndFailTheTask() {
        var handler = new ProcessingDeadLetterHandler();
        handler.configure(Map.of(DeadLetterHandler.TOPIC_CONFIG, DLQ));
        var response = handler.handleError(
                context(), new Record<>("k", "store", 0L), new ProcessorStateException("store is gone"));
        assertThat(response.result()).isEqualTo(ProcessingExceptionHandler.Result.FAIL);
        assertThat(response.deadLetterQueueRecords()).isNullOrEmpty();

        var resumed = handler.handleError(context(), new Record<>("k", "x", 0L), new NullPointerException("bug"));
        assertThat(resumed.result()).isEqualTo(ProcessingExceptionHandler.Result.RESUME);
        assertThat(resumed.deadLetterQueueRecords()).singleElement().satisfies(pr -> assertThat(pr.topic())
                .isEqualTo(DLQ));
    }

    private static org.apache.kafka.streams.errors.ErrorHandlerContext context() {
        return new org.apache.kafka.streams.errors.ErrorHandlerContext() {
            public String topic() {
                return IN;
            }

            public int partition() {
                return 2;
            }

            public long offset() {
                return 9L;
            }

            public org.apache.kafka.common.header.Headers headers() {
                return new org.apache.kafka.common.header.internals.RecordHeaders();
            }

            public String processorNodeId() {
                return "fragile";
            }

            public org.apache.kafka.streams.processor.TaskId taskId() {
                return new org.apache.kafka.streams.processor.TaskId(0, 2);
            }

            public long timestamp() {
                return 0L;
            }

            public byte[] sourceRawKey() {
                return "k".getBytes(StandardCharsets.UTF_8);
            }

            public byte[] sourceRawValue() {
                return "x".getBytes(StandardCharsets.UTF_8);
            }
        };
    }
}
