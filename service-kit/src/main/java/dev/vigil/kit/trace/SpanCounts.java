package dev.vigil.kit.trace;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.metrics.export.CollectionRegistration;
import io.opentelemetry.sdk.metrics.export.MetricReader;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;

/**
 * What became of the spans a service ended, on its {@code /metrics}: exported, failed to export (the collector
 * refused or could not be reached; the spans are gone, the pipeline never waits), and dropped before export because
 * the bounded queue was full. The SDK counts its drops as its own metric; this reader collects that metric when
 * Prometheus scrapes, so no OTLP metrics export is needed for it.
 */
final class SpanCounts implements MetricReader {
    private static final AttributeKey<Boolean> DROPPED = AttributeKey.booleanKey("dropped");
    private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    private final Counter exported;
    private final Counter failed;
    private volatile CollectionRegistration registration = CollectionRegistration.noop();

    SpanCounts(String service, MeterRegistry registry) {
        exported = Counter.builder("vigil.otel.spans.exported")
                .description("spans handed to the OTLP exporter, by outcome")
                .tag("service", service)
                .tag("outcome", "ok")
                .register(registry);
        failed = Counter.builder("vigil.otel.spans.exported")
                .description("spans handed to the OTLP exporter, by outcome")
                .tag("service", service)
                .tag("outcome", "failed")
                .register(registry);
        FunctionCounter.builder("vigil.otel.spans.dropped", this, SpanCounts::dropped)
                .description("spans dropped before export because the export queue was full")
                .tag("service", service)
                .register(registry);
    }

    /** The exporter, counting each batch's outcome. */
    SpanExporter counting(SpanExporter exporter) {
        return new SpanExporter() {
            @Override
            public CompletableResultCode export(Collection<SpanData> spans) {
                int n = spans.size();
                CompletableResultCode result = exporter.export(spans);
                result.whenComplete(() -> (result.isSuccess() ? exported : failed).increment(n));
                return result;
            }

            @Override
            public CompletableResultCode flush() {
                return exporter.flush();
            }

            @Override
            public CompletableResultCode shutdown() {
                return exporter.shutdown();
            }
        };
    }

    double dropped() {
        long sum = 0;
        for (MetricData metric : registration.collectAllMetrics()) {
            if (metric.getType() != MetricDataType.LONG_SUM
                    || !metric.getName().toLowerCase(java.util.Locale.ROOT).contains("span")) {
                continue;
            }
            for (LongPointData point : metric.getLongSumData().getPoints()) {
                if (Boolean.TRUE.equals(point.getAttributes().get(DROPPED))
                        || point.getAttributes().get(ERROR_TYPE) != null) {
                    sum += point.getValue();
                }
            }
        }
        return sum;
    }

    @Override
    public void register(CollectionRegistration registration) {
        this.registration = registration;
    }

    @Override
    public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
        return AggregationTemporality.CUMULATIVE;
    }

    @Override
    public CompletableResultCode forceFlush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }
}
