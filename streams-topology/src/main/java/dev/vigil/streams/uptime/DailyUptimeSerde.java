package dev.vigil.streams.uptime;

import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Fixed-size forms of {@link DailyUptime}, read and written per verdict, told apart by their length:
 * <ul>
 *   <li>40 bytes: epochDay, up, degraded, down, unknown (big-endian longs) — a day without maintenance. Every value
 *       written before maintenance windows were counted has this form and reads with maintenance counts of 0;</li>
 *   <li>72 bytes: the same, then maintenanceUp, maintenanceDegraded, maintenanceDown, maintenanceUnknown.</li>
 * </ul>
 * A day without maintenance is still written in the short form, so most days cost no more on the changelog, and a
 * previous version of the service, rolled back to, still reads them (a day with maintenance it cannot read).
 */
public final class DailyUptimeSerde implements Serde<DailyUptime>, Serializer<DailyUptime>, Deserializer<DailyUptime> {
    static final int PLAIN_SIZE = 5 * Long.BYTES;
    static final int WITH_MAINTENANCE_SIZE = 9 * Long.BYTES;

    @Override
    public byte[] serialize(String topic, DailyUptime d) {
        if (d == null) {
            return null;
        }
        boolean maintenance = d.hasMaintenance();
        ByteBuffer b = ByteBuffer.allocate(maintenance ? WITH_MAINTENANCE_SIZE : PLAIN_SIZE)
                .putLong(d.epochDay())
                .putLong(d.up())
                .putLong(d.degraded())
                .putLong(d.down())
                .putLong(d.unknown());
        if (maintenance) {
            b.putLong(d.maintenanceUp())
                    .putLong(d.maintenanceDegraded())
                    .putLong(d.maintenanceDown())
                    .putLong(d.maintenanceUnknown());
        }
        return b.array();
    }

    @Override
    public DailyUptime deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        if (data.length != PLAIN_SIZE && data.length != WITH_MAINTENANCE_SIZE) {
            throw new SerializationException("DailyUptime must be " + PLAIN_SIZE + " or " + WITH_MAINTENANCE_SIZE
                    + " bytes, was " + data.length);
        }
        ByteBuffer b = ByteBuffer.wrap(data);
        long epochDay = b.getLong();
        long up = b.getLong();
        long degraded = b.getLong();
        long down = b.getLong();
        long unknown = b.getLong();
        if (data.length == PLAIN_SIZE) {
            return new DailyUptime(epochDay, up, degraded, down, unknown);
        }
        try {
            return new DailyUptime(
                    epochDay, up, degraded, down, unknown, b.getLong(), b.getLong(), b.getLong(), b.getLong());
        } catch (IllegalArgumentException e) {
            throw new SerializationException("DailyUptime: " + e.getMessage(), e);
        }
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
