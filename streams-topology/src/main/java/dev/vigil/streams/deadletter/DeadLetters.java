package dev.vigil.streams.deadletter;

import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/** Builds the {@link DeadLetter} envelope for a record a processor could read but not accept. */
public final class DeadLetters {
    public static final String SOURCE = "vigil-streams";

    private DeadLetters() {}

    public static DeadLetter invalid(ProcessorContext<?, ?> context, String key, Object value, String reason) {
        Optional<RecordMetadata> meta = context.recordMetadata();
        byte[] keyBytes = key == null ? null : key.getBytes(StandardCharsets.UTF_8);
        byte[] valueBytes = value == null ? null : Json.bytes(value);
        return DeadLetter.poison(
                SOURCE,
                reason,
                null,
                meta.map(RecordMetadata::topic).orElse(null),
                meta.map(RecordMetadata::partition).orElse(0),
                meta.map(RecordMetadata::offset).orElse(0L),
                keyBytes,
                valueBytes,
                context.currentSystemTimeMs());
    }
}
