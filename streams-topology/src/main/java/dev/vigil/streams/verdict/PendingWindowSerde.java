package dev.vigil.streams.verdict;

import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.MonitorStatus.RegionResult;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.SkipReason;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Compact binary form of {@link PendingWindow} for the pending store and its changelog (written once or
 * twice per probe result, so JSON would dominate the processor's cost). Layout, version 2:
 * {@code byte version, UTF monitorId, long windowStart, short n, n × (UTF region, byte outcome,
 * byte errorKind|-1, int httpStatus|-1, int responseMs|-1, int dnsMs|-1, int connectMs|-1, int tlsMs|-1)}.
 * Version 3 is version 2 followed by the skipped regions, {@code short m, m × (UTF region, byte skipReason)}; it is
 * written only for a window that has a skip, so a window without one keeps the version 2 bytes (an instance of the
 * previous release reads them). Version 1 (written before the phase timings were carried) lacks the three timings and
 * still reads. Enum codes are ordinals in wire order.
 */
public final class PendingWindowSerde
        implements Serde<PendingWindow>, Serializer<PendingWindow>, Deserializer<PendingWindow> {
    private static final byte VERSION = 2;
    private static final byte VERSION_WITH_SKIPS = 3;
    private static final byte VERSION_WITHOUT_PHASES = 1;
    private static final Outcome[] OUTCOMES = Outcome.values();
    private static final ErrorKind[] ERROR_KINDS = ErrorKind.values();
    private static final SkipReason[] SKIP_REASONS = SkipReason.values();

    @Override
    public byte[] serialize(String topic, PendingWindow w) {
        if (w == null) {
            return null;
        }
        byte[] ascii = w.skipped().isEmpty() ? serializeAscii(w) : null;
        return ascii != null ? ascii : serializeUtf(w);
    }

    /**
     * The same bytes as {@link #serializeUtf} when every name is ASCII without NUL (slugs always are: modified UTF-8
     * writes those one byte per char), without the stream machinery; null otherwise.
     */
    private static byte[] serializeAscii(PendingWindow w) {
        if (!ascii(w.monitorId())) {
            return null;
        }
        int size = 1 + Short.BYTES + w.monitorId().length() + Long.BYTES + Short.BYTES;
        for (String region : w.results().keySet()) {
            if (!ascii(region)) {
                return null;
            }
            size += Short.BYTES + region.length() + 2 + 5 * Integer.BYTES;
        }
        ByteBuffer b = ByteBuffer.allocate(size);
        b.put(VERSION);
        putAscii(b, w.monitorId());
        b.putLong(w.windowStart());
        b.putShort((short) w.results().size());
        for (var e : w.results().entrySet()) {
            RegionResult r = e.getValue();
            putAscii(b, e.getKey());
            b.put((byte) r.outcome().ordinal());
            b.put((byte) (r.errorKind() == null ? -1 : r.errorKind().ordinal()));
            b.putInt(r.httpStatus() == null ? -1 : r.httpStatus());
            b.putInt(r.responseMs() == null ? -1 : r.responseMs());
            b.putInt(r.dnsMs() == null ? -1 : r.dnsMs());
            b.putInt(r.connectMs() == null ? -1 : r.connectMs());
            b.putInt(r.tlsMs() == null ? -1 : r.tlsMs());
        }
        return b.array();
    }

    private static boolean ascii(String s) {
        if (s.length() > 0xFFFF) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == 0 || c > 0x7F) {
                return false;
            }
        }
        return true;
    }

    private static void putAscii(ByteBuffer b, String s) {
        b.putShort((short) s.length());
        for (int i = 0; i < s.length(); i++) {
            b.put((byte) s.charAt(i));
        }
    }

    private static byte[] serializeUtf(PendingWindow w) {
        ByteArrayOutputStream bytes =
                new ByteArrayOutputStream(64 + 24 * w.results().size());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(w.skipped().isEmpty() ? VERSION : VERSION_WITH_SKIPS);
            out.writeUTF(w.monitorId());
            out.writeLong(w.windowStart());
            out.writeShort(w.results().size());
            for (var e : w.results().entrySet()) {
                RegionResult r = e.getValue();
                out.writeUTF(e.getKey());
                out.writeByte(r.outcome().ordinal());
                out.writeByte(r.errorKind() == null ? -1 : r.errorKind().ordinal());
                out.writeInt(r.httpStatus() == null ? -1 : r.httpStatus());
                out.writeInt(r.responseMs() == null ? -1 : r.responseMs());
                out.writeInt(r.dnsMs() == null ? -1 : r.dnsMs());
                out.writeInt(r.connectMs() == null ? -1 : r.connectMs());
                out.writeInt(r.tlsMs() == null ? -1 : r.tlsMs());
            }
            if (!w.skipped().isEmpty()) {
                out.writeShort(w.skipped().size());
                for (var e : w.skipped().entrySet()) {
                    out.writeUTF(e.getKey());
                    out.writeByte(e.getValue().ordinal());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static Integer orNull(int value) {
        return value < 0 ? null : value;
    }

    @Override
    public PendingWindow deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(data))) {
            byte version = in.readByte();
            if (version != VERSION && version != VERSION_WITHOUT_PHASES && version != VERSION_WITH_SKIPS) {
                throw new SerializationException("unknown PendingWindow format version " + version);
            }
            String monitorId = in.readUTF();
            long windowStart = in.readLong();
            int n = in.readShort();
            Map<String, RegionResult> results = new HashMap<>();
            for (int i = 0; i < n; i++) {
                String region = in.readUTF();
                Outcome outcome = OUTCOMES[in.readByte()];
                byte kind = in.readByte();
                int status = in.readInt();
                int ms = in.readInt();
                boolean phases = version != VERSION_WITHOUT_PHASES;
                Integer dns = phases ? orNull(in.readInt()) : null;
                Integer connect = phases ? orNull(in.readInt()) : null;
                Integer tls = phases ? orNull(in.readInt()) : null;
                results.put(
                        region,
                        new RegionResult(
                                outcome,
                                kind < 0 ? null : ERROR_KINDS[kind],
                                orNull(status),
                                orNull(ms),
                                dns,
                                connect,
                                tls));
            }
            Map<String, SkipReason> skipped = new HashMap<>();
            if (version == VERSION_WITH_SKIPS) {
                int m = in.readShort();
                for (int i = 0; i < m; i++) {
                    skipped.put(in.readUTF(), SKIP_REASONS[in.readByte()]);
                }
            }
            return new PendingWindow(monitorId, windowStart, results, skipped);
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("unreadable PendingWindow", e);
        }
    }

    @Override
    public Serializer<PendingWindow> serializer() {
        return this;
    }

    @Override
    public Deserializer<PendingWindow> deserializer() {
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
