package dev.vigil.streams.rules;

import dev.vigil.schemas.json.JsonSerde;
import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Fixed 26-byte form of {@link MonitorRuleState}, written once per verdict (version byte, lastWindowStart,
 * consecutiveDegraded, consecutiveUnknown, tlsWindowStart, flags). Changelogs written before this form held JSON;
 * a value starting with {@code '{'} is still read as JSON, so an upgrade restores old state.
 */
public final class MonitorRuleStateSerde
        implements Serde<MonitorRuleState>, Serializer<MonitorRuleState>, Deserializer<MonitorRuleState> {
    private static final byte VERSION = 1;
    private static final int SIZE = 1 + Long.BYTES + 2 * Integer.BYTES + Long.BYTES + 1;
    private static final byte TLS_BREACH = 1;
    private static final byte TLS_HEALTHY = 2;
    private static final JsonSerde<MonitorRuleState> LEGACY_JSON = new JsonSerde<>(MonitorRuleState.class);

    @Override
    public byte[] serialize(String topic, MonitorRuleState s) {
        if (s == null) {
            return null;
        }
        byte flags = (byte) ((s.tlsBreachInWindow() ? TLS_BREACH : 0) | (s.tlsHealthyInWindow() ? TLS_HEALTHY : 0));
        return ByteBuffer.allocate(SIZE)
                .put(VERSION)
                .putLong(s.lastWindowStart())
                .putInt(s.consecutiveDegraded())
                .putInt(s.consecutiveUnknown())
                .putLong(s.tlsWindowStart())
                .put(flags)
                .array();
    }

    @Override
    public MonitorRuleState deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        if (data.length > 0 && data[0] == '{') {
            return LEGACY_JSON.deserialize(topic, data);
        }
        if (data.length != SIZE || data[0] != VERSION) {
            throw new SerializationException("MonitorRuleState must be " + SIZE + " bytes of version " + VERSION
                    + ", was " + data.length + " bytes" + (data.length > 0 ? " of version " + data[0] : ""));
        }
        ByteBuffer b = ByteBuffer.wrap(data, 1, SIZE - 1);
        long lastWindowStart = b.getLong();
        int degraded = b.getInt();
        int unknown = b.getInt();
        long tlsWindowStart = b.getLong();
        byte flags = b.get();
        try {
            return new MonitorRuleState(
                    lastWindowStart,
                    degraded,
                    unknown,
                    tlsWindowStart,
                    (flags & TLS_BREACH) != 0,
                    (flags & TLS_HEALTHY) != 0);
        } catch (IllegalArgumentException e) {
            throw new SerializationException("invalid MonitorRuleState: " + e.getMessage(), e);
        }
    }

    @Override
    public Serializer<MonitorRuleState> serializer() {
        return this;
    }

    @Override
    public Deserializer<MonitorRuleState> deserializer() {
        return this;
    }

    @Override
    public void configure(java.util.Map<String, ?> configs, boolean isKey) {
        // stateless
    }

    @Override
    public void close() {
        // stateless
    }
}
