package dev.vigil.streams.trace;

import dev.vigil.kit.trace.Tracing;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * One hop of a trace inside the topology: a record that causes another (a probe result its verdict, a verdict its
 * alert event) hands its trace context on in the caused record's headers. With export on, the hop records its own
 * span, a child of the cause's context (or the root of a new trace when the cause carried none, as for a verdict
 * decided at its deadline); with export off, the cause's context is copied unchanged, so that a downstream service
 * that exports still sees one trace.
 */
public final class HopSpans {
    public static final HopSpans OFF = new HopSpans(Tracing.off("streams"));
    private static final String TRACEPARENT = "traceparent";
    private static final String TRACESTATE = "tracestate";

    private final Tracing tracing;

    public HopSpans(Tracing tracing) {
        this.tracing = tracing;
    }

    /**
     * The headers of the record this hop forwards, or null when there is nothing to carry.
     *
     * @param cause the headers of the record being processed; null when the hop has no cause (a punctuation)
     */
    public Headers hop(String name, Headers cause, Attributes attributes) {
        if (!tracing.exporting()) {
            return passOn(cause);
        }
        Span span = tracing.tracer()
                .spanBuilder(name)
                .setSpanKind(SpanKind.INTERNAL)
                .setParent(tracing.extract(cause))
                .setAllAttributes(attributes)
                .startSpan();
        span.end();
        Headers out = new RecordHeaders();
        tracing.inject(span, out);
        return out;
    }

    /** True when hops record spans: callers skip building attributes otherwise. */
    public boolean recording() {
        return tracing.exporting();
    }

    private static Headers passOn(Headers cause) {
        if (cause == null) {
            return null;
        }
        Header parent = cause.lastHeader(TRACEPARENT);
        if (parent == null) {
            return null;
        }
        Headers out = new RecordHeaders().add(parent);
        Header state = cause.lastHeader(TRACESTATE);
        if (state != null) {
            out.add(state);
        }
        return out;
    }
}
