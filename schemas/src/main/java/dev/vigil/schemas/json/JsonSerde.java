package dev.vigil.schemas.json;

import dev.vigil.schemas.contract.ContractViolation;
import java.util.function.Function;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka serde for one contract record, through the shared {@link Json} configuration. A value that
 * cannot be read raises {@link PoisonRecordException} (a Kafka {@link SerializationException}) naming
 * the field, which Streams' deserialization handler and consumers route to the dead-letter topic.
 * A null value (tombstone) reads as null.
 *
 * <p>A serde may carry a fast reader for its type's common shape (e.g. {@link ProbeResultReader}): it is tried
 * first, and when it returns null ("not sure") the value is read through {@link Json} exactly as without it, so
 * values, errors and {@link PoisonRecordException} messages do not change. Likewise a streaming writer (e.g.
 * {@link MonitorStatusWriter}) must produce exactly the bytes {@link Json#bytes} would.
 */
public final class JsonSerde<T> implements Serde<T>, Serializer<T>, Deserializer<T> {
    private final Class<T> type;
    private final Function<byte[], T> fastReader;
    private final Function<T, byte[]> writer;

    public JsonSerde(Class<T> type) {
        this(type, null);
    }

    /**
     * @param fastReaderOrNull returns the value {@code Json.read(bytes, type)} would return, or null to defer to
     *                         it; it must never throw
     */
    public JsonSerde(Class<T> type, Function<byte[], T> fastReaderOrNull) {
        this(type, fastReaderOrNull, null);
    }

    /**
     * @param fastReaderOrNull as above
     * @param writerOrNull     returns exactly the bytes {@code Json.bytes(value)} would (null: use it)
     */
    public JsonSerde(Class<T> type, Function<byte[], T> fastReaderOrNull, Function<T, byte[]> writerOrNull) {
        this.type = type;
        this.fastReader = fastReaderOrNull;
        this.writer = writerOrNull;
    }

    public Class<T> type() {
        return type;
    }

    @Override
    public byte[] serialize(String topic, T data) {
        if (data == null) {
            return null;
        }
        return writer != null ? writer.apply(data) : Json.bytes(data);
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        if (fastReader != null) {
            T fast = fastReader.apply(data);
            if (fast != null) {
                return fast;
            }
        }
        try {
            return Json.read(data, type);
        } catch (ContractViolation e) {
            throw new PoisonRecordException(type.getSimpleName(), e);
        }
    }

    @Override
    public void close() {
        // stateless
    }

    @Override
    public void configure(java.util.Map<String, ?> configs, boolean isKey) {
        // stateless
    }

    @Override
    public Serializer<T> serializer() {
        return this;
    }

    @Override
    public Deserializer<T> deserializer() {
        return this;
    }

    /** A record value that breaks its contract; the message names the type and field, never the value. */
    public static final class PoisonRecordException extends SerializationException {
        private static final long serialVersionUID = 1L;
        private final String field;

        public PoisonRecordException(String typeName, ContractViolation cause) {
            super("invalid " + typeName + ": " + cause.getMessage(), cause);
            this.field = cause.field();
        }

        public String field() {
            return field;
        }
    }
}
