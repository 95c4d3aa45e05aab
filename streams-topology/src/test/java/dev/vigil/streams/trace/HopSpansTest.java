package dev.vigil.streams.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.kit.trace.OtelSettings;
import dev.vigil.kit.trace.Tracing;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.common.Attributes;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class HopSpansTest {
    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PARENT = "00-" + TRACE + "-00f067aa0ba902b7-01";

    private static Headers traced() {
        return new RecordHeaders().add("traceparent", PARENT.getBytes(StandardCharsets.UTF_8));
    }

    private static AlertEvent event(Map<String, String> links, Map<String, String> attributes) {
        return new AlertEvent(
                1,
                "e-1",
                "monitor/a",
                "monitor/a@1",
                AlertState.OPENED,
                Severity.CRITICAL,
                "a",
                "monitor",
                "down",
                links,
                attributes,
                1,
                1L,
                1L,
                AlertSource.PROBE,
                false,
                List.of());
    }

    @Test
    void exportingAHopIsAChildOfItsCauseInTheSameTrace() throws Exception {
        try (var receiver = dev.vigil.embedded.otel.OtlpReceiver.start();
                Tracing tracing = Tracing.start(
                        "streams",
                        "t",
                        new OtelSettings(receiver.endpoint(), 1.0, "", ""),
                        Map.of(),
                        new SimpleMeterRegistry())) {
            Headers out = new HopSpans(tracing).hop("verdict", traced(), Attributes.empty());
            assertThat(HopSpans.traceId(out)).isEqualTo(TRACE);
            assertThat(new String(out.lastHeader("traceparent").value(), StandardCharsets.UTF_8))
                    .isNotEqualTo(PARENT)
                    .startsWith("00-" + TRACE + "-");
        }
    }

    @Test
    void offPassesTheCauseOnAndACauseWithoutATraceGivesNoHeaders() {
        assertThat(HopSpans.OFF.hop("verdict", traced(), Attributes.empty()).lastHeader("traceparent"))
                .isNotNull();
        assertThat(HopSpans.OFF.hop("verdict", new RecordHeaders(), Attributes.empty()))
                .isNull();
        assertThat(HopSpans.OFF.hop("verdict", null, Attributes.empty())).isNull();
    }

    @Test
    void thePageLinksTheTraceWhenATraceUiIsConfiguredElseNamesIt() {
        Tracing withUi = Tracing.start(
                "streams",
                "t",
                new OtelSettings("", 1.0, "", "https://jaeger.example/trace/{traceId}"),
                Map.of(),
                new SimpleMeterRegistry());
        AlertEvent linked = new HopSpans(withUi).stamp(event(Map.of(), Map.of()), traced());
        assertThat(linked.links()).containsEntry("trace", "https://jaeger.example/trace/" + TRACE);
        AlertEvent named = HopSpans.OFF.stamp(event(Map.of(), Map.of()), traced());
        assertThat(named.attributes()).containsEntry("trace_id", TRACE);
        assertThat(HopSpans.OFF.stamp(event(Map.of(), Map.of()), new RecordHeaders()))
                .isEqualTo(event(Map.of(), Map.of()));
    }

    @Test
    void aFullEventIsLeftAsItIsRatherThanBreakTheContract() {
        Map<String, String> attributes = new HashMap<>();
        for (int i = 0; i < 16; i++) {
            attributes.put("k" + i, "v");
        }
        AlertEvent full = event(Map.of(), attributes);
        assertThat(HopSpans.OFF.stamp(full, traced())).isEqualTo(full);
    }
}
