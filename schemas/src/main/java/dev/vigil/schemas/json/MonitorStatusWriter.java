package dev.vigil.schemas.json;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.MonitorStatus.RegionResult;
import dev.vigil.schemas.contract.SkipReason;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Writes a {@link MonitorStatus} byte for byte as {@code Json.bytes(status)} does (components in declaration order,
 * nulls omitted, region map keys sorted): the verdict topology encodes one verdict per window and the databind path
 * was a measurable share of it. Text that needs no escaping is written directly; anything else goes through
 * Jackson's streaming generator from the shared mapper's factory, so escaping is the mapper's own.
 */
public final class MonitorStatusWriter {
    private MonitorStatusWriter() {}

    public static byte[] write(MonitorStatus s) {
        byte[] plain = writePlain(s);
        return plain != null ? plain : writeWithGenerator(s);
    }

    /**
     * The generator's bytes, written directly, when every text is printable ASCII without quote or backslash (ids and
     * region names are slugs): such text is written as is, so no escaping decision is involved. Null otherwise.
     */
    private static byte[] writePlain(MonitorStatus s) {
        if (!plain(s.monitorId())) {
            return null;
        }
        for (String region : s.regions().keySet()) {
            if (!plain(region)) {
                return null;
            }
        }
        for (String region : s.missingRegions()) {
            if (!plain(region)) {
                return null;
            }
        }
        StringBuilder b = new StringBuilder(
                160 + 80 * s.regions().size() + 16 * s.missingRegions().size());
        b.append("{\"schemaVersion\":")
                .append(s.schemaVersion().intValue())
                .append(",\"monitorId\":\"")
                .append(s.monitorId())
                .append("\",\"windowStart\":")
                .append(s.windowStart().longValue())
                .append(",\"status\":\"")
                .append(s.status().wire())
                .append("\",\"complete\":")
                .append(s.complete().booleanValue())
                .append(",\"regions\":{");
        boolean first = true;
        for (Map.Entry<String, RegionResult> e : s.regions().entrySet()) {
            RegionResult r = e.getValue();
            b.append(first ? "\"" : ",\"")
                    .append(e.getKey())
                    .append("\":{\"outcome\":\"")
                    .append(r.outcome().wire())
                    .append('"');
            if (r.errorKind() != null) {
                b.append(",\"errorKind\":\"").append(r.errorKind().wire()).append('"');
            }
            if (r.httpStatus() != null) {
                b.append(",\"httpStatus\":").append(r.httpStatus().intValue());
            }
            if (r.responseMs() != null) {
                b.append(",\"responseMs\":").append(r.responseMs().intValue());
            }
            if (r.dnsMs() != null) {
                b.append(",\"dnsMs\":").append(r.dnsMs().intValue());
            }
            if (r.connectMs() != null) {
                b.append(",\"connectMs\":").append(r.connectMs().intValue());
            }
            if (r.tlsMs() != null) {
                b.append(",\"tlsMs\":").append(r.tlsMs().intValue());
            }
            b.append('}');
            first = false;
        }
        b.append("},\"missingRegions\":[");
        first = true;
        for (String region : s.missingRegions()) {
            b.append(first ? "\"" : ",\"").append(region).append('"');
            first = false;
        }
        b.append("],\"decidedAt\":").append(s.decidedAt().longValue());
        if (!s.skipped().isEmpty()) {
            b.append(",\"skipped\":{");
            first = true;
            for (Map.Entry<String, SkipReason> e : s.skipped().entrySet()) {
                b.append(first ? "\"" : ",\"")
                        .append(e.getKey())
                        .append("\":\"")
                        .append(e.getValue().wire())
                        .append('"');
                first = false;
            }
            b.append('}');
        }
        b.append('}');
        return b.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static boolean plain(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c > 0x7E || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    private static byte[] writeWithGenerator(MonitorStatus s) {
        ByteArrayOutputStream out =
                new ByteArrayOutputStream(96 + 64 * s.regions().size());
        try (JsonGenerator g = Json.mapper().getFactory().createGenerator(out, JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeNumberField("schemaVersion", s.schemaVersion());
            g.writeStringField("monitorId", s.monitorId());
            g.writeNumberField("windowStart", s.windowStart());
            g.writeStringField("status", s.status().wire());
            g.writeBooleanField("complete", s.complete());
            g.writeObjectFieldStart("regions");
            // the record keeps its regions sorted by name (ORDER_MAP_ENTRIES_BY_KEYS gives the same order)
            for (Map.Entry<String, RegionResult> e : s.regions().entrySet()) {
                g.writeObjectFieldStart(e.getKey());
                writeRegion(g, e.getValue());
                g.writeEndObject();
            }
            g.writeEndObject();
            g.writeArrayFieldStart("missingRegions");
            for (String region : s.missingRegions()) {
                g.writeString(region);
            }
            g.writeEndArray();
            g.writeNumberField("decidedAt", s.decidedAt());
            if (!s.skipped().isEmpty()) {
                g.writeObjectFieldStart("skipped");
                for (Map.Entry<String, SkipReason> e : s.skipped().entrySet()) {
                    g.writeStringField(e.getKey(), e.getValue().wire());
                }
                g.writeEndObject();
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void writeRegion(JsonGenerator g, RegionResult r) throws IOException {
        g.writeStringField("outcome", r.outcome().wire());
        if (r.errorKind() != null) {
            g.writeStringField("errorKind", r.errorKind().wire());
        }
        if (r.httpStatus() != null) {
            g.writeNumberField("httpStatus", r.httpStatus());
        }
        if (r.responseMs() != null) {
            g.writeNumberField("responseMs", r.responseMs());
        }
        if (r.dnsMs() != null) {
            g.writeNumberField("dnsMs", r.dnsMs());
        }
        if (r.connectMs() != null) {
            g.writeNumberField("connectMs", r.connectMs());
        }
        if (r.tlsMs() != null) {
            g.writeNumberField("tlsMs", r.tlsMs());
        }
    }
}
