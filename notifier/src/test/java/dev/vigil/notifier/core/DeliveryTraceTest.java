package dev.vigil.notifier.core;

import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.vigil.kit.log.JsonLogEncoder;
import dev.vigil.kit.trace.Tracing;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.Severity;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.trace.Span;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import reactor.util.context.Context;

class DeliveryTraceTest {
    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PARENT = "00-" + TRACE + "-00f067aa0ba902b7-01";

    @Test
    void aDeliveryLoggedInsideItsSpanCarriesTheTraceAndSpanIds() {
        Logger logger = (Logger) LoggerFactory.getLogger(DeliveryTrace.class);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        logger.addAppender(lines);
        // an unreachable collector: the span is recorded (export on), its export fails later, off this thread
        try (Tracing tracing = Tracing.start(
                "notifier",
                "test",
                new dev.vigil.kit.trace.OtelSettings("http://127.0.0.1:9", 1.0, "", ""),
                Map.of(),
                new SimpleMeterRegistry())) {
            var headers = new RecordHeaders().add("traceparent", PARENT.getBytes(StandardCharsets.UTF_8));
            Context context = DeliveryTrace.in(Context.empty(), tracing, tracing.extract(headers));
            AlertEvent e = opened("monitor/a", Severity.CRITICAL);
            Span span = DeliveryTrace.start(context, e, "oncall");
            assertThat(span.getSpanContext().getTraceId()).isEqualTo(TRACE);
            DeliveryTrace.end(span, e, new ChannelResult("oncall", FinalOutcome.DEAD_LETTERED, 3, "HTTP 400"));

            ILoggingEvent line = lines.list.stream()
                    .filter(l -> l.getFormattedMessage().contains("dead-lettered"))
                    .findFirst()
                    .orElseThrow();
            assertThat(line.getMDCPropertyMap())
                    .containsEntry("trace_id", TRACE)
                    .containsEntry("span_id", span.getSpanContext().getSpanId());
            String json = new String(new JsonLogEncoder().encode(line), StandardCharsets.UTF_8);
            assertThat(json)
                    .contains("\"trace_id\":\"" + TRACE + "\"")
                    .contains("\"span_id\":\"" + span.getSpanContext().getSpanId() + "\"")
                    .contains("\"severity\":\"WARNING\"");
            assertThat(org.slf4j.MDC.get("trace_id")).isNull();
        } finally {
            logger.detachAppender(lines);
        }
    }

    @Test
    void withoutATraceInTheDispatchADeliveryRecordsNothing() {
        AlertEvent e = opened("monitor/a", Severity.CRITICAL);
        assertThat(DeliveryTrace.start(Context.empty(), e, "oncall")
                        .getSpanContext()
                        .isValid())
                .isFalse();
        Tracing tracing = Tracing.off("notifier");
        Context off = DeliveryTrace.in(
                Context.empty(),
                tracing,
                tracing.extract(new RecordHeaders().add("traceparent", PARENT.getBytes(StandardCharsets.UTF_8))));
        assertThat(DeliveryTrace.start(off, e, "oncall").getSpanContext().isValid())
                .isFalse();
    }
}
