package dev.vigil.kit.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.vigil.embedded.otel.OtlpReceiver;
import dev.vigil.kit.config.InvalidConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class TracingTest {
    private static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void offPassesTheContextARecordCameWithToTheRecordsItCauses() {
        try (Tracing tracing =
                Tracing.start("test", "i-1", OtelSettings.defaults(), Map.of(), new SimpleMeterRegistry())) {
            assertThat(tracing.exporting()).isFalse();
            var in = new RecordHeaders().add("traceparent", PARENT.getBytes(StandardCharsets.UTF_8));
            Context parent = tracing.extract(in);
            Span span =
                    tracing.tracer().spanBuilder("verdict").setParent(parent).startSpan();
            assertThat(span.isRecording()).isFalse();
            var out = new RecordHeaders();
            tracing.inject(span, out);
            span.end();
            assertThat(new String(out.lastHeader("traceparent").value(), StandardCharsets.UTF_8))
                    .isEqualTo(PARENT);
        }
    }

    @Test
    void offSendsNothingEvenWithTheOtherOtelVariablesSet() throws Exception {
        try (OtlpReceiver receiver = OtlpReceiver.start();
                Tracing tracing = Tracing.start(
                        "test",
                        "i-1",
                        OtelSettings.defaults(),
                        Map.of("OTEL_BSP_SCHEDULE_DELAY", "10", "OTEL_SERVICE_NAME", "x"),
                        new SimpleMeterRegistry())) {
            var in = new RecordHeaders().add("traceparent", PARENT.getBytes(StandardCharsets.UTF_8));
            for (int i = 0; i < 100; i++) {
                tracing.tracer()
                        .spanBuilder("s")
                        .setParent(tracing.extract(in))
                        .startSpan()
                        .end();
            }
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> receiver.requests() == 0);
        }
    }

    @Test
    void offAndWithoutContextAddsNoHeader() {
        Tracing tracing = Tracing.off("test");
        Span span = tracing.tracer()
                .spanBuilder("probe")
                .setParent(tracing.extract(new RecordHeaders()))
                .startSpan();
        var out = new RecordHeaders();
        tracing.inject(span, out);
        assertThat(out.toArray()).isEmpty();
    }

    @Test
    void malformedTraceparentStartsNoTraceAndBreaksNothing() {
        Tracing tracing = Tracing.off("test");
        var in = new RecordHeaders().add("traceparent", "00-zzzz-not-a-context".getBytes(StandardCharsets.UTF_8));
        assertThat(Span.fromContext(tracing.extract(in)).getSpanContext().isValid())
                .isFalse();
    }

    @Test
    void exportsChildSpansWithTheirParentAndServiceName() throws Exception {
        var registry = new SimpleMeterRegistry();
        try (OtlpReceiver receiver = OtlpReceiver.start();
                Tracing tracing = Tracing.start(
                        "test",
                        "i-1",
                        new OtelSettings(receiver.endpoint(), 1.0, "staging", ""),
                        Map.of("OTEL_BSP_SCHEDULE_DELAY", "50"),
                        registry)) {
            assertThat(tracing.exporting()).isTrue();
            var in = new RecordHeaders().add("traceparent", PARENT.getBytes(StandardCharsets.UTF_8));
            Span span = tracing.tracer()
                    .spanBuilder("verdict")
                    .setSpanKind(SpanKind.CONSUMER)
                    .setParent(tracing.extract(in))
                    .startSpan();
            span.end();
            await().atMost(Duration.ofSeconds(10)).until(() -> !receiver.spans().isEmpty());
            OtlpReceiver.ReceivedSpan got = receiver.spans().get(0);
            assertThat(got.traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
            assertThat(got.parentSpanId()).isEqualTo("00f067aa0ba902b7");
            assertThat(got.service()).isEqualTo("vigil-test");
            assertThat(got.name()).isEqualTo("verdict");
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> registry.get("vigil.otel.spans.exported")
                                    .tag("outcome", "ok")
                                    .counter()
                                    .count()
                            == 1.0);
        }
    }

    @Test
    void anUnsampledParentIsNotExportedAndARatioOfZeroKeepsNoNewTrace() throws Exception {
        try (OtlpReceiver receiver = OtlpReceiver.start();
                Tracing tracing = Tracing.start(
                        "test",
                        "i-1",
                        new OtelSettings(receiver.endpoint(), 0.0, "", ""),
                        Map.of("OTEL_BSP_SCHEDULE_DELAY", "50"),
                        new SimpleMeterRegistry())) {
            tracing.tracer().spanBuilder("root").startSpan().end();
            var unsampled = new RecordHeaders()
                    .add("traceparent", PARENT.replace("-01", "-00").getBytes(StandardCharsets.UTF_8));
            tracing.tracer()
                    .spanBuilder("child")
                    .setParent(tracing.extract(unsampled))
                    .startSpan()
                    .end();
            var sampled = new RecordHeaders().add("traceparent", PARENT.getBytes(StandardCharsets.UTF_8));
            tracing.tracer()
                    .spanBuilder("kept")
                    .setParent(tracing.extract(sampled))
                    .startSpan()
                    .end();
            // the two others ended first: exported at all, they would arrive no later than "kept"
            await().atMost(Duration.ofSeconds(10)).until(() -> receiver.spans().stream()
                    .anyMatch(sp -> sp.name().equals("kept")));
            assertThat(receiver.spans())
                    .extracting(OtlpReceiver.ReceivedSpan::name)
                    .containsExactly("kept");
        }
    }

    @Test
    void aCollectorThatRefusesCostsSpansCountedNeverAWait() throws Exception {
        var registry = new SimpleMeterRegistry();
        try (OtlpReceiver receiver = OtlpReceiver.start();
                Tracing tracing = Tracing.start(
                        "test",
                        "i-1",
                        new OtelSettings(receiver.endpoint(), 1.0, "", ""),
                        Map.of(
                                "OTEL_BSP_MAX_QUEUE_SIZE", "8",
                                "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "8",
                                "OTEL_BSP_SCHEDULE_DELAY", "50"),
                        registry)) {
            receiver.refuse(true);
            for (int i = 0; i < 5_000; i++) {
                tracing.tracer().spanBuilder("s" + i).startSpan().end();
            }
            await().atMost(Duration.ofSeconds(15))
                    .until(() -> registry.get("vigil.otel.spans.exported")
                                            .tag("outcome", "failed")
                                            .counter()
                                            .count()
                                    > 0
                            && registry.get("vigil.otel.spans.dropped")
                                            .functionCounter()
                                            .count()
                                    > 0);
            assertThat(receiver.spans()).isEmpty();
        }
    }

    @Test
    void grpcIsRefusedWithTheVariableNamed() {
        assertThatThrownBy(() -> Tracing.start(
                        "test",
                        "i-1",
                        new OtelSettings("http://127.0.0.1:4317", 1.0, "", ""),
                        Map.of("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
                        new SimpleMeterRegistry()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("OTEL_EXPORTER_OTLP_PROTOCOL=grpc");
    }

    @Test
    void theSdkSwitchAndTheExporterNoneTurnExportOff() {
        var settings = new OtelSettings("http://127.0.0.1:4318", 1.0, "", "");
        assertThat(Tracing.start("t", "i", settings, Map.of("OTEL_SDK_DISABLED", "true"), new SimpleMeterRegistry())
                        .exporting())
                .isFalse();
        assertThat(Tracing.start("t", "i", settings, Map.of("OTEL_TRACES_EXPORTER", "none"), new SimpleMeterRegistry())
                        .exporting())
                .isFalse();
    }

    @Test
    void aSpanScopePutsItsIdsInTheLoggingContextAndRestoresIt() {
        Span span = Span.wrap(SpanContext.create(
                "4bf92f3577b34da6a3ce929d0e0e4736",
                "00f067aa0ba902b7",
                io.opentelemetry.api.trace.TraceFlags.getSampled(),
                io.opentelemetry.api.trace.TraceState.getDefault()));
        MDC.put(SpanScope.TRACE_ID, "outer");
        try (SpanScope scope = SpanScope.of(span)) {
            assertThat(MDC.get(SpanScope.TRACE_ID)).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
            assertThat(MDC.get(SpanScope.SPAN_ID)).isEqualTo("00f067aa0ba902b7");
            assertThat(Span.current()).isSameAs(span);
        }
        assertThat(MDC.get(SpanScope.TRACE_ID)).isEqualTo("outer");
        assertThat(MDC.get(SpanScope.SPAN_ID)).isNull();
        MDC.clear();
    }

    @Test
    void settingsAreCheckedWithTheirKeys() {
        assertThatThrownBy(() -> new OtelSettings("ftp://x", 2.0, "", "https://jaeger/trace/"))
                .isInstanceOf(InvalidConfig.class)
                .hasMessageContaining("endpoint")
                .hasMessageContaining("sampleRatio")
                .hasMessageContaining("traceUrl");
        assertThat(new OtelSettings("", null, null, "https://jaeger.example/trace/{traceId}").traceLink("abc"))
                .isEqualTo("https://jaeger.example/trace/abc");
    }
}
