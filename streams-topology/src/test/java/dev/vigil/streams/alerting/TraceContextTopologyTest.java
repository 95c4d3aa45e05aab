package dev.vigil.streams.alerting;

import static dev.vigil.streams.Fixtures.W0;
import static dev.vigil.streams.Fixtures.failure;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.ProbeResult;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/**
 * With export off (the topology's default), the trace a probe result began passes through the verdict and the alert
 * unchanged: a service downstream that exports still sees one trace; a result without one causes records without.
 */
class TraceContextTopologyTest {
    private static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void theAlertAFailingResultOpensCarriesTheResultsTraceparent() {
        try (var h = AlertingTopologyTest.started()) {
            h.define(AlertingTopologyTest.monitor("traced", 60, AlertingTopologyTest.ONE));
            h.wallClockTo(W0 - 20_000);
            ProbeResult r = failure("traced", "eu-west", W0);
            var headers = new RecordHeaders().add("traceparent", PARENT.getBytes(StandardCharsets.UTF_8));
            h.results.pipeInput(new TestRecord<>(r.monitorId(), r, headers, r.startedAt()));
            List<TestRecord<String, AlertEvent>> out = h.alerts.readRecordsToList();
            assertThat(out).hasSize(1);
            assertThat(out.get(0).value().state()).isEqualTo(AlertState.OPENED);
            Header carried = out.get(0).headers().lastHeader("traceparent");
            assertThat(carried).isNotNull();
            assertThat(new String(carried.value(), StandardCharsets.UTF_8)).isEqualTo(PARENT);
            // the page names the trace, so whoever is paged can find it (no trace UI configured: no link)
            assertThat(out.get(0).value().attributes()).containsEntry("trace_id", "4bf92f3577b34da6a3ce929d0e0e4736");
            assertThat(out.get(0).value().links()).doesNotContainKey("trace");
        }
    }

    @Test
    void aResultWithoutATraceCausesAnAlertWithout() {
        try (var h = AlertingTopologyTest.started()) {
            h.define(AlertingTopologyTest.monitor("untraced", 60, AlertingTopologyTest.ONE));
            h.wallClockTo(W0 - 20_000);
            h.result(failure("untraced", "eu-west", W0));
            var out = h.alerts.readRecordsToList();
            assertThat(out).hasSize(1);
            assertThat(out.get(0).headers().lastHeader("traceparent")).isNull();
            assertThat(out.get(0).value().attributes()).doesNotContainKey("trace_id");
        }
    }
}
