package dev.vigil.streams.alerting;

import static dev.vigil.streams.Fixtures.W0;
import static dev.vigil.streams.Fixtures.failure;
import static dev.vigil.streams.Fixtures.success;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.streams.config.AlertingConfig;
import dev.vigil.streams.selfwatch.CanaryProcessor;
import java.util.List;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/** The canary monitor's verdicts reach the alerts topic as {@code vigil/canary} events; no other monitor's do. */
class CanaryTopologyTest {
    static final long MIN = 60_000L;
    static final List<String> ONE = List.of("eu-west");

    static MonitorDefinition monitor(String id) {
        return new MonitorDefinition(
                1,
                id,
                null,
                "http://127.0.0.1:8080/health",
                null,
                60,
                2500,
                ONE,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    static List<AlertEvent> canaries(List<TestRecord<String, AlertEvent>> records) {
        return records.stream()
                .map(TestRecord::value)
                .filter(e -> e.fingerprint().equals(CanaryProcessor.FINGERPRINT))
                .toList();
    }

    /** Defines the monitors, then fails each of them in its one region for four windows: enough to page. */
    static void failFourWindows(AlertingHarness h, String... ids) {
        for (String id : ids) {
            h.define(monitor(id));
        }
        h.wallClockTo(W0 - 20_000);
        for (int i = 0; i < 4; i++) {
            for (String id : ids) {
                h.result(failure(id, "eu-west", W0 + i * MIN));
            }
        }
    }

    @Test
    void everyDecidedWindowOfTheCanaryIsOneEventWithItsOwnId() {
        try (var h = new AlertingHarness(W0 - 30_000)) {
            h.define(monitor("vigil-canary"));
            h.define(monitor("shop"));
            h.wallClockTo(W0 - 20_000);
            for (int i = 0; i < 3; i++) {
                long w = W0 + i * MIN;
                h.result(success("vigil-canary", "eu-west", w));
                h.result(success("shop", "eu-west", w));
            }
            var records = h.alerts.readRecordsToList();
            assertThat(records).allMatch(r -> !r.value().fingerprint().startsWith("monitor/shop"));
            List<AlertEvent> out = canaries(records);
            assertThat(out).hasSize(3);
            assertThat(records)
                    .filteredOn(r -> r.value().fingerprint().equals(CanaryProcessor.FINGERPRINT))
                    .allMatch(r -> r.key().equals(CanaryProcessor.FINGERPRINT));
            assertThat(out)
                    .extracting(AlertEvent::eventId)
                    .doesNotHaveDuplicates()
                    .containsExactly(
                            "vigil/canary@" + W0 + "/opened/1",
                            "vigil/canary@" + (W0 + MIN) + "/opened/1",
                            "vigil/canary@" + (W0 + 2 * MIN) + "/opened/1");
            AlertEvent first = out.get(0);
            assertThat(first.state()).isEqualTo(AlertState.OPENED);
            assertThat(first.severity()).isEqualTo(Severity.INFO);
            assertThat(first.source()).isEqualTo(AlertSource.HEARTBEAT);
            assertThat(first.incidentId()).isEqualTo("vigil/canary@" + W0);
            assertThat(first.attributes())
                    .containsEntry("canary", "true")
                    .containsEntry("windowStart", "" + W0)
                    .containsEntry("status", "up")
                    .containsKey("decidedAt");
            assertThat(Long.parseLong(first.attributes().get("decidedAt"))).isGreaterThanOrEqualTo(W0);
        }
    }

    @Test
    void aFailingCanaryStillReportsItsWindowWithItsStatus() {
        try (var h = new AlertingHarness(W0 - 30_000)) {
            h.define(monitor("vigil-canary"));
            h.wallClockTo(W0 - 20_000);
            h.result(failure("vigil-canary", "eu-west", W0));
            List<AlertEvent> out = canaries(h.alerts.readRecordsToList());
            assertThat(out).hasSize(1);
            assertThat(out.get(0).attributes()).containsEntry("status", "down");
        }
    }

    @Test
    void aFailingCanaryNeverOpensAnIncidentOfItsOwnWhileAMonitorFailingBesideItPages() {
        try (var h = new AlertingHarness(W0 - 30_000)) {
            failFourWindows(h, "vigil-canary", "shop");
            var records = h.alerts.readRecordsToList();
            assertThat(records)
                    .extracting(r -> r.value().fingerprint())
                    .as("the control pages; the canary's failures are only its own events")
                    .contains("monitor/shop")
                    .noneMatch(fp -> fp.contains("vigil-canary"));
            assertThat(canaries(records)).hasSize(4).allMatch(e -> "down"
                    .equals(e.attributes().get("status")));
        }
    }

    @Test
    void aMonitorNamedLikeTheCanaryPagesWhenTheCanaryIsOff() {
        AlertingConfig off = new AlertingConfig(null, null, null, null, null, null, null, "");
        try (var h = new AlertingHarness(off, W0 - 30_000)) {
            failFourWindows(h, "vigil-canary");
            assertThat(h.alerts.readRecordsToList())
                    .extracting(r -> r.value().fingerprint())
                    .contains("monitor/vigil-canary");
        }
    }

    @Test
    void anEmptyCanaryIdForwardsNothing() {
        AlertingConfig off = new AlertingConfig(null, null, null, null, null, null, null, "");
        try (var h = new AlertingHarness(off, W0 - 30_000)) {
            h.define(monitor("vigil-canary"));
            h.wallClockTo(W0 - 20_000);
            h.result(success("vigil-canary", "eu-west", W0));
            h.result(success("vigil-canary", "eu-west", W0 + MIN));
            assertThat(canaries(h.alerts.readRecordsToList())).isEmpty();
        }
    }

    @Test
    void theIdIsConfigurable() {
        AlertingConfig other = new AlertingConfig(null, null, null, null, null, null, null, "my-canary");
        try (var h = new AlertingHarness(other, W0 - 30_000)) {
            h.define(monitor("vigil-canary"));
            h.define(monitor("my-canary"));
            h.wallClockTo(W0 - 20_000);
            h.result(success("vigil-canary", "eu-west", W0));
            h.result(success("my-canary", "eu-west", W0));
            List<AlertEvent> out = canaries(h.alerts.readRecordsToList());
            assertThat(out).hasSize(1);
            assertThat(out.get(0).attributes()).containsEntry("monitorId", "my-canary");
        }
    }
}
