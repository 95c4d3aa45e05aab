package dev.vigil.standalone.drill;

import dev.vigil.kit.trace.Tracing;
import io.opentelemetry.api.trace.SpanContext;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.apache.kafka.common.header.Headers;

/**
 * The trace a drill's outage begins: a W3C {@code traceparent} (sampled) on the synthetic probe result, which every
 * hop carries on in its record's headers — with its own span id where the service exports spans, unchanged where
 * it does not. The drill reads each hop's context back from the records it waits for.
 */
record DrillTrace(String traceId, String spanId) {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HexFormat HEX = HexFormat.of();

    static DrillTrace begin() {
        byte[] trace = new byte[16];
        byte[] span = new byte[8];
        RANDOM.nextBytes(trace);
        RANDOM.nextBytes(span);
        trace[0] |= 1; // never the all-zero (invalid) id
        span[0] |= 1;
        return new DrillTrace(HEX.formatHex(trace), HEX.formatHex(span));
    }

    String traceparent() {
        return "00-" + traceId + "-" + spanId + "-01";
    }

    void inject(Headers headers) {
        headers.remove(Tracing.TRACEPARENT);
        headers.add(Tracing.TRACEPARENT, traceparent().getBytes(StandardCharsets.US_ASCII));
    }

    /** How a hop's record continued the trace, for the drill's table. */
    String hop(Headers headers) {
        SpanContext hop = Tracing.contextOf(headers);
        if (!hop.isValid()) {
            return "no trace context (a service before tracing?)";
        }
        if (!hop.getTraceId().equals(traceId)) {
            return "another trace " + hop.getTraceId() + " (the trace was not continued)";
        }
        return hop.getSpanId().equals(spanId)
                ? "trace passed on (this service exports no spans)"
                : "span " + hop.getSpanId();
    }
}
