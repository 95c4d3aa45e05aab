package dev.vigil.standalone.drill;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The trace a drill's outage begins: a W3C {@code traceparent} (sampled) on the synthetic probe result, which every
 * hop carries on in its record's headers — with its own span id where the service exports spans, unchanged where
 * it does not. The drill reads each hop's context back from the records it waits for.
 */
record DrillTrace(String traceId, String spanId) {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HexFormat HEX = HexFormat.of();
    static final String TRACEPARENT = "traceparent";

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
        headers.remove(TRACEPARENT);
        headers.add(TRACEPARENT, traceparent().getBytes(StandardCharsets.US_ASCII));
    }

    /** How a hop's record continued the trace, for the drill's table. */
    String hop(Headers headers) {
        Header h = headers.lastHeader(TRACEPARENT);
        if (h == null || h.value() == null || h.value().length < 55) {
            return "no trace context (a service before tracing?)";
        }
        String parent = new String(h.value(), StandardCharsets.US_ASCII);
        String trace = parent.substring(3, 35);
        String span = parent.substring(36, 52);
        if (!trace.equals(traceId)) {
            return "another trace " + trace + " (the trace was not continued)";
        }
        return span.equals(spanId) ? "trace passed on (this service exports no spans)" : "span " + span;
    }
}
