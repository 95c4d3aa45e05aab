package dev.vigil.streams.metrics;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Compact binary serde for {@link MetricAggregate}, for the metric-window store and its changelog, where
 * every metric read-modify-writes one window (JSON of a few hundred histogram buckets would dominate the
 * cost). Layout, version 1:
 * <pre>
 * byte 1 | appId, metricName, statusClass (varint length + UTF-8) | windowStart (8 bytes)
 * | count, errorCount (varlong) | sum (8 bytes) | zeroCount (varlong) | min, max (8 bytes each)
 * | bucket count (varint) | per bucket: index delta (zigzag varint, first from 0), count (varlong)
 * </pre>
 * A malformed value raises {@link SerializationException}. A null value (tombstone) reads as null.
 */
public final class MetricAggregateSerde implements Serde<MetricAggregate>, Serializer<MetricAggregate>,
        Deserializer<MetricAggregate> {
    static final byte VERSION = 1;

    @Override
    public byte[] serialize(String topic, MetricAggregate a) {
        if (a == null) {
            return null;
        }
        DurationHistogram.Snapshot h = a.histogram().snapshot();
        Out out = new Out(64 + h.indexes().length * 4);
        out.buf.write(VERSION);
        out.string(a.appId());
        out.string(a.metricName());
        out.string(a.statusClass());
        out.fixed64(a.windowStart());
        out.varlong(a.count());
        out.varlong(a.errorCount());
        out.fixed64(Double.doubleToLongBits(a.sum()));
        out.varlong(h.zeroCount());
        out.fixed64(Double.doubleToLongBits(h.min()));
        out.fixed64(Double.doubleToLongBits(h.max()));
        out.varlong(h.indexes().length);
        int prev = 0;
        for (int k = 0; k < h.indexes().length; k++) {
            int i = h.indexes()[k];
            long delta = (long) i - prev;
            out.varlong((delta << 1) ^ (delta >> 63));
            out.varlong(h.counts()[k]);
            prev = i;
        }
        return out.buf.toByteArray();
    }

    @Override
    public MetricAggregate deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        try {
            In in = new In(data);
            if (in.u8() != VERSION) {
                throw new SerializationException("metric window: unknown format version");
            }
            String app = in.string();
            String metric = in.string();
            String cls = in.string();
            long windowStart = in.fixed64();
            long count = in.varlong();
            long errors = in.varlong();
            double sum = Double.longBitsToDouble(in.fixed64());
            long zero = in.varlong();
            double min = Double.longBitsToDouble(in.fixed64());
            double max = Double.longBitsToDouble(in.fixed64());
            long n = in.varlong();
            if (n < 0 || n > data.length) {
                throw new SerializationException("metric window: bad bucket count");
            }
            int[] idx = new int[(int) n];
            long[] cnt = new long[(int) n];
            long prev = 0;
            for (int k = 0; k < n; k++) {
                long z = in.varlong();
                long i = prev + ((z >>> 1) ^ -(z & 1));
                if (i < Integer.MIN_VALUE || i > Integer.MAX_VALUE) {
                    throw new SerializationException("metric window: bucket index out of range");
                }
                idx[k] = (int) i;
                cnt[k] = in.varlong();
                prev = i;
            }
            if (in.pos != data.length) {
                throw new SerializationException("metric window: trailing bytes");
            }
            return new MetricAggregate(app, metric, cls, windowStart, count, sum, errors,
                    DurationHistogram.of(new DurationHistogram.Snapshot(zero, min, max, idx, cnt)));
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new SerializationException("metric window: malformed value (" + e.getClass().getSimpleName() + ")", e);
        }
    }

    @Override
    public Serializer<MetricAggregate> serializer() {
        return this;
    }

    @Override
    public Deserializer<MetricAggregate> deserializer() {
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

    private static final class Out {
        final ByteArrayOutputStream buf;

        Out(int size) {
            buf = new ByteArrayOutputStream(size);
        }

        void varlong(long v) {
            while ((v & ~0x7FL) != 0) {
                buf.write((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            buf.write((int) v);
        }

        void fixed64(long v) {
            for (int s = 56; s >= 0; s -= 8) {
                buf.write((int) (v >>> s));
            }
        }

        void string(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            varlong(b.length);
            buf.write(b, 0, b.length);
        }
    }

    private static final class In {
        final byte[] data;
        int pos;

        In(byte[] data) {
            this.data = data;
        }

        int u8() {
            return data[pos++] & 0xFF;
        }

        long varlong() {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int b = u8();
                v |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return v;
                }
            }
            throw new SerializationException("metric window: varint too long");
        }

        long fixed64() {
            long v = 0;
            for (int k = 0; k < 8; k++) {
                v = (v << 8) | u8();
            }
            return v;
        }

        String string() {
            long len = varlong();
            if (len < 0 || len > data.length - pos) {
                throw new SerializationException("metric window: bad string length");
            }
            String s = new String(data, pos, (int) len, StandardCharsets.UTF_8);
            pos += (int) len;
            return s;
        }
    }
}
