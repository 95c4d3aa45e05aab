package dev.vigil.streams.alerting;

import static dev.vigil.streams.Fixtures.W0;
import static dev.vigil.streams.HeartbeatFixtures.at;
import static dev.vigil.streams.HeartbeatFixtures.deadline;
import static dev.vigil.streams.HeartbeatFixtures.failed;
import static dev.vigil.streams.HeartbeatFixtures.ping;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.streams.HeartbeatFixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The availability alert of heartbeat monitors, through the whole topology: a missed heartbeat opens
 * {@code monitor/<id>} at the window's end plus grace, saying so; pings again resolve it after the configured healthy
 * run (2); a {@code /fail} pages at once, saying the job reported a failure.
 */
class HeartbeatAlertingTest {
    private static final int INTERVAL_S = 600;
    private static final long INTERVAL = INTERVAL_S * 1000L;
    private static final MonitorDefinition BACKUP = HeartbeatFixtures.every("backup", INTERVAL_S, 60);

    private static AlertingHarness started(MonitorDefinition def, long first) {
        AlertingHarness h = new AlertingHarness(first - 30_000);
        h.define(def);
        h.wallClockTo(first - 20_000);
        return h;
    }

    @Test
    void aMissedHeartbeatOpensAtTheDeadlineAndPingsAgainResolveIt() {
        try (AlertingHarness h = started(BACKUP, W0)) {
            h.wallClockTo(W0 + 60_000);
            h.result(ping(BACKUP, W0 + 60_000));
            assertThat(h.alerts.readValuesToList()).isEmpty();

            long w1 = W0 + INTERVAL;
            h.wallClockTo(deadline(BACKUP, w1) - 1_000);
            assertThat(h.alerts.readValuesToList())
                    .as("nothing while the window is in its grace")
                    .isEmpty();
            h.wallClockTo(deadline(BACKUP, w1) + 1_000);
            List<AlertEvent> opened = h.alerts.readValuesToList();
            assertThat(opened).singleElement().satisfies(e -> {
                assertThat(e.state()).isEqualTo(AlertState.OPENED);
                assertThat(e.fingerprint()).isEqualTo("monitor/backup");
                assertThat(e.source()).isEqualTo(AlertSource.PROBE);
                assertThat(e.firstSeen()).isEqualTo(w1);
                assertThat(e.summary())
                        .isEqualTo("Job backup missed its heartbeat: no ping since 2027-01-15T08:10:00Z"
                                + " (the window ended 2027-01-15T08:20:00Z, grace 60 s)");
                assertThat(e.attributes())
                        .containsEntry("failingRegions", "push")
                        .containsEntry("status", "down");
            });

            // the job runs again: two healthy windows in a row resolve (alerting.healthyToResolve)
            long w2 = w1 + INTERVAL;
            h.result(ping(BACKUP, w2 + 70_000));
            assertThat(h.alerts.readValuesToList())
                    .as("one healthy window: resolving")
                    .isEmpty();
            h.wallClockTo(w2 + INTERVAL + 30_000);
            h.result(ping(BACKUP, w2 + INTERVAL + 30_000));
            assertThat(h.alerts.readValuesToList()).singleElement().satisfies(e -> {
                assertThat(e.state()).isEqualTo(AlertState.RESOLVED);
                assertThat(e.incidentId()).isEqualTo("monitor/backup@" + w1);
                assertThat(e.summary()).isEqualTo("Job backup is up: its heartbeat arrived");
            });
        }
    }

    @Test
    void aPingWithinTheGraceOfAMissedWindowStillPagesForTheMissedRun() {
        try (AlertingHarness h = started(BACKUP, W0)) {
            h.result(ping(BACKUP, W0 + 1_000));
            long w2 = W0 + 2 * INTERVAL;
            h.wallClockTo(w2 + 20_000);
            h.result(ping(BACKUP, w2 + 20_000)); // w1 was missed; its grace has 45 s to go
            h.wallClockTo(deadline(BACKUP, W0 + INTERVAL) + 1_000);
            assertThat(h.alerts.readValuesToList())
                    .extracting(AlertEvent::state)
                    .containsExactly(AlertState.OPENED);
        }
    }

    @Test
    void aReportedFailurePagesAtOnceSayingSo() {
        long first = at("2026-10-24T00:00:00Z");
        MonitorDefinition nightly = HeartbeatFixtures.cron("nightly", "0 2 * * *", "Europe/Paris", 60);
        try (AlertingHarness h = started(nightly, first)) {
            h.wallClockTo(first + 3_600_000L);
            h.result(failed(nightly, first + 3_600_000L));
            assertThat(h.alerts.readValuesToList()).singleElement().satisfies(e -> {
                assertThat(e.state()).isEqualTo(AlertState.OPENED);
                assertThat(e.summary())
                        .isEqualTo("Job nightly reported a failure (heartbeat window from "
                                + "2026-10-24T02:00:00+02:00)");
            });
        }
    }
}
