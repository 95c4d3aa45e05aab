package dev.vigil.streams.metrics;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Compact binary serde for {@link MetricAggregate}, for the metric-window store and its changelog, where
 * every metric read-modify-writes one window (JSON of a few hundred histogram buckets would dominate the
 * cost). Layout, version 2:
 * <pre>
 * byte 2 | appId, metricName, statusClass (varint length + UTF-8) | windowStart (8 bytes)
 * | count, errorCount (varlong) | sum (8 bytes) | zeroCount (varlong) | min, max (8 bytes each)
 * | bucket count (varint) | per bucket: index delta (zigzag varint, first from 0), count (varlong)
 * </pre>
 * Bucket indexes are those of sketches-java's logarithmic mapping ({@link DurationHistogram}). Version 1, written
 * before, has the same layout with the hand-written mapping's indexes; it still reads, each old bucket's count
 * moved to the bucket holding its representative value (what {@link DurationHistogram} says about the old
 * numbering), so a store or changelog written by the previous release keeps its counts, min, max and quantiles.
 * A malformed value raises {@link SerializationException}. A null value (tombstone) reads as null.
 */
public final class MetricAggregateSerde
        implements Serde<MetricAggregate>, Serializer<MetricAggregate>, Deserializer<MetricAggregate> {
    static final byte VERSION = 2;
    /** The layout before sketches-java: the same, with the hand-written mapping's bucket indexes. */
    static final byte VERSION_1 = 1;

    @Override
    public byte[] serialize(String topic, MetricAggregate a) {
        if (a == null) {
            return null;
        }
        DurationHistogram h = a.histogram();
        int[] count = {0};
        h.forEachBucket((index, c) -> count[0]++);
        int buckets = count[0];
        byte[] app = a.appId().getBytes(StandardCharsets.UTF_8);
        byte[] metric = a.metricName().getBytes(StandardCharsets.UTF_8);
        byte[] cls = a.statusClass().getBytes(StandardCharsets.UTF_8);
        Out out = new Out(1
                + 3 * 5
                + app.length
                + metric.length
                + cls.length
                + 8
                + 10
                + 10
                + 8
                + 10
                + 8
                + 8
                + 5
                + buckets * (10 + 10));
        out.u8(VERSION);
        out.bytes(app);
        out.bytes(metric);
        out.bytes(cls);
        out.fixed64(a.windowStart());
        out.varlong(a.count());
        out.varlong(a.errorCount());
        out.fixed64(Double.doubleToLongBits(a.sum()));
        out.varlong(h.zeroCount());
        out.fixed64(Double.doubleToLongBits(h.isEmpty() ? 0 : h.min()));
        out.fixed64(Double.doubleToLongBits(h.isEmpty() ? 0 : h.max()));
        out.varlong(buckets);
        long[] prev = {0};
        h.forEachBucket((index, c) -> {
            long delta = index - prev[0];
            out.varlong((delta << 1) ^ (delta >> 63));
            out.varlong((long) c);
            prev[0] = index;
        });
        return out.toByteArray();
    }

    @Override
    public MetricAggregate deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        try {
            In in = new In(data);
            int version = in.u8();
            if (version != VERSION && version != VERSION_1) {
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
            if (n < 0 || n > data.length || zero < 0) {
                throw new SerializationException("metric window: bad bucket count");
            }
            int[] idx = new int[(int) n];
            long[] cnt = new long[(int) n];
            long prev = 0;
            for (int k = 0; k < n; k++) {
                long z = in.varlong();
                long i = prev + ((z >>> 1) ^ -(z & 1));
                if (i < Integer.MIN_VALUE || i > Integer.MAX_VALUE || (k > 0 && i <= prev)) {
                    throw new SerializationException("metric window: bucket indexes must ascend within int range");
                }
                long c = in.varlong();
                if (c <= 0) {
                    throw new SerializationException("metric window: bucket counts must be positive");
                }
                idx[k] = (int) i;
                cnt[k] = c;
                prev = i;
            }
            if (in.pos != data.length) {
                throw new SerializationException("metric window: trailing bytes");
            }
            DurationHistogram h = DurationHistogram.ofBuckets(
                    version == VERSION_1 ? DurationHistogram.LEGACY_INDEXES : DurationHistogram.LIBRARY_INDEXES,
                    idx,
                    cnt,
                    (int) n,
                    zero,
                    min,
                    max);
            return new MetricAggregate(app, metric, cls, windowStart, count, sum, errors, h);
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new SerializationException(
                    "metric window: malformed value (" + e.getClass().getSimpleName() + ")", e);
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

    /** An unsynchronised writer into a buffer sized for the worst case. */
    private static final class Out {
        private final byte[] buf;
        private int pos;

        Out(int capacity) {
            buf = new byte[capacity];
        }

        void u8(int b) {
            buf[pos++] = (byte) b;
        }

        void varlong(long v) {
            while ((v & ~0x7FL) != 0) {
                buf[pos++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            buf[pos++] = (byte) v;
        }

        void fixed64(long v) {
            for (int s = 56; s >= 0; s -= 8) {
                buf[pos++] = (byte) (v >>> s);
            }
        }

        void bytes(byte[] b) {
            varlong(b.length);
            System.arraycopy(b, 0, buf, pos, b.length);
            pos += b.length;
        }

        byte[] toByteArray() {
            return java.util.Arrays.copyOf(buf, pos);
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
