package dev.vigil.notifier.core;

import dev.vigil.kit.trace.SpanScope;
import dev.vigil.kit.trace.Tracing;
import dev.vigil.schemas.contract.AlertEvent;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.util.context.ContextView;

/**
 * An alert event's trace as its deliveries continue it: put in the Reactor context of the event's dispatch by the
 * consumer (from the record's {@code traceparent}), read by each channel's pipeline, which records one span per
 * delivery — claim, send and every retry — as a child of the alert's span. Without it (an escalation, a digest, a
 * test) a delivery records nothing. Span attributes name the event, channel and outcome; never a message body, a
 * URL or a credential.
 */
public final class DeliveryTrace {
    private static final Logger LOG = LoggerFactory.getLogger(DeliveryTrace.class);
    private static final Class<DeliveryTrace> KEY = DeliveryTrace.class;

    private final Tracing tracing;
    private final Context parent;

    private DeliveryTrace(Tracing tracing, Context parent) {
        this.tracing = tracing;
        this.parent = parent;
    }

    /** The dispatch's Reactor context with the event's trace (as the consumer read it from the record). */
    public static reactor.util.context.Context in(
            reactor.util.context.Context context, Tracing tracing, Context parent) {
        return context.put(KEY, new DeliveryTrace(tracing, parent));
    }

    /** The delivery's span, begun; an invalid span when the dispatch carries no trace or export is off. */
    static Span start(ContextView context, AlertEvent e, String channel) {
        DeliveryTrace trace = context.getOrDefault(KEY, null);
        if (trace == null || !trace.tracing.exporting()) {
            return Span.getInvalid();
        }
        return trace.tracing
                .tracer()
                .spanBuilder("deliver " + channel)
                .setSpanKind(SpanKind.CLIENT)
                .setParent(trace.parent)
                .setAttribute("vigil.channel", channel)
                .setAttribute("vigil.alert.event_id", e.eventId())
                .setAttribute("vigil.alert.fingerprint", e.fingerprint())
                .setAttribute("vigil.alert.state", e.state().wire())
                .startSpan();
    }

    /** Ends the delivery's span with its outcome, and logs the outcome inside it (with its trace and span ids). */
    static void end(Span span, AlertEvent e, ChannelResult r) {
        if (!span.getSpanContext().isValid()) {
            return;
        }
        span.setAttribute("vigil.delivery.outcome", r.outcome().name().toLowerCase(java.util.Locale.ROOT));
        span.setAttribute("vigil.delivery.attempts", r.attempts());
        boolean failed = r.outcome() == FinalOutcome.DEAD_LETTERED;
        if (failed) {
            span.setStatus(StatusCode.ERROR, "dead-lettered");
        }
        if (failed || LOG.isDebugEnabled()) {
            try (SpanScope scope = SpanScope.of(span)) {
                if (failed) {
                    LOG.warn("event {} to {}: dead-lettered: {}", e.eventId(), r.channel(), r.reason());
                } else {
                    LOG.debug("event {} to {}: {}", e.eventId(), r.channel(), r.outcome());
                }
            }
        }
        span.end();
    }

    /** Ends a delivery that failed with an error (not an outcome: the pipeline itself broke). */
    static void fail(Span span, Throwable error) {
        if (span.getSpanContext().isValid()) {
            span.setStatus(StatusCode.ERROR, error.getClass().getSimpleName());
            span.end();
        }
    }
}
