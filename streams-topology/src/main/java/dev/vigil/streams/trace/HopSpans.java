package dev.vigil.streams.trace;

import dev.vigil.kit.trace.Tracing;
import dev.vigil.schemas.contract.AlertEvent;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import java.util.LinkedHashMap;
import java.util.Map;
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
    private static final String TRACESTATE = "tracestate";
    /** The contract's limits on an alert event's links and attributes. */
    private static final int MAX_LINKS = 8;

    private static final int MAX_ATTRIBUTES = 16;
    public static final String TRACE_LINK = "trace";
    public static final String TRACE_ATTRIBUTE = "trace_id";

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

    /**
     * The event as its pages carry it: with the trace it continues (the headers {@link #hop} gave) linked when a trace
     * UI is configured ({@code links.trace}), else named ({@code attributes.trace_id}), so whoever is paged can find
     * the trace; unchanged without a trace or where the contract's room for links or attributes is used up.
     */
    public AlertEvent stamp(AlertEvent e, Headers headers) {
        String traceId = traceId(headers);
        if (traceId == null) {
            return e;
        }
        String link = tracing.settings().traceLink(traceId);
        Map<String, String> links = e.links();
        Map<String, String> attributes = e.attributes();
        if (!link.isEmpty() && links.size() < MAX_LINKS && !links.containsKey(TRACE_LINK)) {
            links = new LinkedHashMap<>(links);
            links.put(TRACE_LINK, link);
        } else if (attributes.size() < MAX_ATTRIBUTES && !attributes.containsKey(TRACE_ATTRIBUTE)) {
            attributes = new LinkedHashMap<>(attributes);
            attributes.put(TRACE_ATTRIBUTE, traceId);
        } else {
            return e;
        }
        return e.withDetails(links, attributes);
    }

    /** The trace id a record's {@code traceparent} names, or null. */
    public static String traceId(Headers headers) {
        SpanContext context = Tracing.contextOf(headers);
        return context.isValid() ? context.getTraceId() : null;
    }

    /** True when hops record spans: callers skip building attributes otherwise. */
    public boolean recording() {
        return tracing.exporting();
    }

    private static Headers passOn(Headers cause) {
        if (cause == null) {
            return null;
        }
        Header parent = cause.lastHeader(Tracing.TRACEPARENT);
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
