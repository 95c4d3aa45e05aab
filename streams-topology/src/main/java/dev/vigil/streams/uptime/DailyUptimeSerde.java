package dev.vigil.streams.uptime;

import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** Fixed 40-byte form of {@link DailyUptime} (epochDay, up, degraded, down, unknown): read and written per verdict. */
public final class DailyUptimeSerde implements Serde<DailyUptime>, Serializer<DailyUptime>, Deserializer<DailyUptime> {
    private static final int SIZE = 5 * Long.BYTES;

    @Override
    public byte[] serialize(String topic, DailyUptime d) {
        if (d == null) {
            return null;
        }
        return ByteBuffer.allocate(SIZE).putLong(d.epochDay()).putLong(d.up()).putLong(d.degraded()).putLong(d.down())
                .putLong(d.unknown()).array();
    }

    @Override
    public DailyUptime deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        if (data.length != SIZE) {
            throw new SerializationException("DailyUptime must be " + SIZE + " bytes, was " + data.length);
        }
        ByteBuffer b = ByteBuffer.wrap(data);
        return new DailyUptime(b.getLong(), b.getLong(), b.getLong(), b.getLong(), b.getLong());
    }

    @Override
    public Serializer<DailyUptime> serializer() {
        return this;
    }

    @Override
    public Deserializer<DailyUptime> deserializer() {
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
