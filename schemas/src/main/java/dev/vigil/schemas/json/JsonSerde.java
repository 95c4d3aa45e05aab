package dev.vigil.schemas.json;

import dev.vigil.schemas.contract.ContractViolation;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka serde for one contract record, through the shared {@link Json} configuration. A value that
 * cannot be read raises {@link PoisonRecordException} (a Kafka {@link SerializationException}) naming
 * the field, which Streams' deserialization handler and consumers route to the dead-letter topic.
 * A null value (tombstone) reads as null.
 */
public final class JsonSerde<T> implements Serde<T>, Serializer<T>, Deserializer<T> {
    private final Class<T> type;

    public JsonSerde(Class<T> type) {
        this.type = type;
    }

    public Class<T> type() {
        return type;
    }

    @Override
    public byte[] serialize(String topic, T data) {
        return data == null ? null : Json.bytes(data);
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
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
