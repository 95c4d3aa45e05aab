package dev.vigil.kit.trace;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Scope;
import org.slf4j.MDC;

/**
 * A span made current on this thread, with its ids in the logging context ({@code trace_id}, {@code span_id}) so
 * that every line logged inside carries them; closing restores what was there before. For the short synchronous
 * stretch that logs, not across an asynchronous hop (Reactor moves work between threads).
 */
public final class SpanScope implements AutoCloseable {
    public static final String TRACE_ID = "trace_id";
    public static final String SPAN_ID = "span_id";

    private final Scope scope;
    private final String previousTrace;
    private final String previousSpan;
    private final boolean valid;

    private SpanScope(Span span) {
        SpanContext context = span.getSpanContext();
        this.valid = context.isValid();
        this.scope = span.makeCurrent();
        this.previousTrace = valid ? MDC.get(TRACE_ID) : null;
        this.previousSpan = valid ? MDC.get(SPAN_ID) : null;
        if (valid) {
            MDC.put(TRACE_ID, context.getTraceId());
            MDC.put(SPAN_ID, context.getSpanId());
        }
    }

    public static SpanScope of(Span span) {
        return new SpanScope(span);
    }

    @Override
    public void close() {
        if (valid) {
            restore(TRACE_ID, previousTrace);
            restore(SPAN_ID, previousSpan);
        }
        scope.close();
    }

    private static void restore(String key, String value) {
        if (value == null) {
            MDC.remove(key);
        } else {
            MDC.put(key, value);
        }
    }
}
