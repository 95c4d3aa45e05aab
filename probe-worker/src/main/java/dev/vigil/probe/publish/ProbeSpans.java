package dev.vigil.probe.publish;

import dev.vigil.kit.trace.Tracing;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.header.Headers;

/**
 * The span of one probe run, begun a new trace: recorded from the result's own timings once the probe is over (the
 * probe's hot path stays free of tracing), with the phases — DNS, connect, TLS, first byte — as events at the times
 * they ended. Attributes name the monitor, region and outcome; never the target's URL, headers or body.
 */
final class ProbeSpans {
    private final Tracing tracing;

    ProbeSpans(Tracing tracing) {
        this.tracing = tracing;
    }

    /** Records the probe's span and writes its context into the result record's headers (nothing when off). */
    void record(ProbeResult result, Headers headers) {
        if (!tracing.exporting()) {
            return;
        }
        long start = result.startedAt() == null ? System.currentTimeMillis() : result.startedAt();
        long total = result.totalMs() == null ? 0 : result.totalMs();
        Span span = tracing.tracer()
                .spanBuilder("probe "
                        + (result.checkType() == null
                                ? "http"
                                : result.checkType().wire()))
                .setNoParent()
                .setSpanKind(SpanKind.CLIENT)
                .setStartTimestamp(start, TimeUnit.MILLISECONDS)
                .setAttribute("vigil.monitor.id", result.monitorId())
                .setAttribute("vigil.region", result.region())
                .setAttribute("vigil.worker.id", result.workerId())
                .setAttribute("vigil.window.start", result.windowStart())
                .setAttribute("vigil.probe.outcome", result.outcome().name())
                .startSpan();
        if (result.httpStatus() != null) {
            span.setAttribute("http.response.status_code", result.httpStatus());
        }
        if (result.errorKind() != null) {
            span.setAttribute("error.type", result.errorKind().name());
        }
        if (result.skipReason() != null) {
            span.setAttribute("vigil.probe.skip_reason", result.skipReason().name());
        }
        long at = start;
        at = phase(span, "dns", result.dnsMs(), at);
        at = phase(span, "connect", result.connectMs(), at);
        phase(span, "tls", result.tlsMs(), at);
        if (result.responseMs() != null) {
            span.addEvent("first byte", start + result.responseMs(), TimeUnit.MILLISECONDS);
        }
        if (result.outcome() != Outcome.SUCCESS && result.outcome() != Outcome.SKIPPED) {
            span.setStatus(StatusCode.ERROR, result.outcome().name());
        }
        span.end(start + total, TimeUnit.MILLISECONDS);
        tracing.inject(span, headers);
    }

    private static long phase(Span span, String name, Integer ms, long at) {
        if (ms == null) {
            return at;
        }
        long end = at + ms;
        span.addEvent(name, end, TimeUnit.MILLISECONDS);
        return end;
    }
}
