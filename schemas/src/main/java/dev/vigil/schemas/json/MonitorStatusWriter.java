package dev.vigil.schemas.json;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.MonitorStatus.RegionResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Writes a {@link MonitorStatus} with Jackson's streaming generator, byte for byte as {@code Json.bytes(status)}
 * does (components in declaration order, nulls omitted, region map keys sorted): the verdict topology encodes one
 * verdict per window and the databind path was a measurable share of it. The generator comes from the shared
 * mapper's factory, so escaping is the mapper's own.
 */
public final class MonitorStatusWriter {
    private MonitorStatusWriter() {
    }

    public static byte[] write(MonitorStatus s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(96 + 64 * s.regions().size());
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
    }
}
