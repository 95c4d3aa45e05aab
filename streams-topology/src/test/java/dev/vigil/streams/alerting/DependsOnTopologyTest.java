package dev.vigil.streams.alerting;

import static dev.vigil.streams.Fixtures.W0;
import static dev.vigil.streams.Fixtures.failure;
import static dev.vigil.streams.Fixtures.success;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.streams.topology.StoreNames;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/**
 * docs/monitors.md#dependencies over the whole topology: a child's availability notifications wait while its parent is
 * down, its resolution never does, and it pages as soon as its parent recovers if it is still failing. Each test
 * decides the parent's window before the child's, as the global store of down monitors sees them in production once
 * the parent's verdict has reached it.
 */
class DependsOnTopologyTest {
    static final long MIN = 60_000L;
    static final String REGION = "eu-west";

    static MonitorDefinition monitor(String id, String... parents) {
        return AlertingTopologyTest.monitor(id, 60, List.of(REGION)).withDependsOn(List.of(parents));
    }

    static AlertingHarness started() {
        AlertingHarness h = new AlertingHarness(W0 - 30_000);
        h.define(monitor("db"));
        h.define(monitor("api", "db"));
        h.wallClockTo(W0 - 20_000);
        return h;
    }

    static void window(AlertingHarness h, String id, long windowStart, boolean ok) {
        h.result(ok ? success(id, REGION, windowStart) : failure(id, REGION, windowStart));
    }

    /** The events so far, as {@code fingerprint state[:silenced]}. */
    static List<String> events(AlertingHarness h, List<AlertEvent> seen) {
        seen.addAll(h.alerts.readValuesToList());
        return seen.stream()
                .map(e -> e.fingerprint() + " " + e.state().wire() + (e.silenced() ? ":silenced" : ""))
                .toList();
    }

    static AlertStateRecord record(AlertingHarness h, String fingerprint) {
        KeyValueStore<String, AlertStateRecord> store = h.driver.getKeyValueStore(StoreNames.MONITOR_ALERTS_STORE);
        return store.get(fingerprint);
    }

    @Test
    void aParentDownThenItsChildDownPagesOnceForTheParent() {
        try (var h = started()) {
            List<AlertEvent> seen = new ArrayList<>();
            for (int i = 0; i < 20; i++) { // twenty minutes: past the reminder debounce of fifteen
                window(h, "db", W0 + i * MIN, false);
                window(h, "api", W0 + i * MIN, false);
            }
            assertThat(events(h, seen)).containsExactly("monitor/db opened", "monitor/db reminder");
            AlertStateRecord api = record(h, "monitor/api");
            assertThat(api.isOpen()).isTrue();
            assertThat(api.paged()).isFalse();
            assertThat(api.sequence()).isZero();
            assertThat(api.held()).isEqualTo(new AlertStateRecord.Held("db", "depends on db, which is down"));
        }
    }

    @Test
    void aChildThatPagedBeforeItsParentFailedGetsItsResolution() {
        try (var h = started()) {
            List<AlertEvent> seen = new ArrayList<>();
            window(h, "db", W0, true);
            window(h, "api", W0, false); // the child pages on its own
            for (int i = 1; i <= 17; i++) { // then its parent fails, past the child's reminder
                window(h, "db", W0 + i * MIN, false);
                window(h, "api", W0 + i * MIN, false);
            }
            // the child's reminder (due fifteen minutes after it opened) is held; the parent's is not
            assertThat(events(h, seen))
                    .containsExactly("monitor/api opened", "monitor/db opened", "monitor/db reminder");
            assertThat(record(h, "monitor/api").held()).isNotNull();

            for (int i = 18; i <= 19; i++) { // both recover: no reminder owed any more, the resolutions go out
                window(h, "db", W0 + i * MIN, true);
                window(h, "api", W0 + i * MIN, true);
            }
            h.wallClockTo(h.wallClock() + 5_000);
            assertThat(events(h, seen))
                    .containsExactly(
                            "monitor/api opened",
                            "monitor/db opened",
                            "monitor/db reminder",
                            "monitor/db resolved",
                            "monitor/api resolved");
            assertThat(record(h, "monitor/api").held()).isNull();
        }
    }

    @Test
    void aChildStillFailingPagesAsSoonAsItsParentRecovers() {
        try (var h = started()) {
            List<AlertEvent> seen = new ArrayList<>();
            window(h, "db", W0, false);
            window(h, "api", W0, false);
            window(h, "db", W0 + MIN, true); // the parent's next window is up; the child's is not decided yet
            assertThat(events(h, seen)).containsExactly("monitor/db opened");
            assertThat(record(h, "monitor/api").held()).isNotNull();

            h.wallClockTo(h.wallClock() + MonitorAlertProcessor.RELEASE_CHECK.toMillis());
            assertThat(events(h, seen)).containsExactly("monitor/db opened", "monitor/api opened");
            AlertEvent opened = seen.get(1);
            assertThat(opened.incidentId()).isEqualTo("monitor/api@" + W0);
            assertThat(opened.eventId()).isEqualTo(AlertEvent.topologyEventId(opened.incidentId(), opened.state(), 1));
            assertThat(record(h, "monitor/api").held()).isNull();
            assertThat(record(h, "monitor/api").paged()).isTrue();

            // the child's own next failing window changes nothing: it already paged
            window(h, "api", W0 + MIN, false);
            assertThat(events(h, seen)).hasSize(2);
        }
    }

    @Test
    void aChildThatRecoversWhileHeldNeverPages() {
        try (var h = started()) {
            List<AlertEvent> seen = new ArrayList<>();
            window(h, "db", W0, false);
            window(h, "api", W0, false);
            window(h, "api", W0 + MIN, true);
            window(h, "api", W0 + 2 * MIN, true);
            window(h, "db", W0 + MIN, true);
            window(h, "db", W0 + 2 * MIN, true);
            h.wallClockTo(h.wallClock() + 5_000);
            // the child never paged, so no resolution either; nothing went out for it at all
            assertThat(events(h, seen)).containsExactly("monitor/db opened", "monitor/db resolved");
            assertThat(record(h, "monitor/api").isOpen()).isFalse();
        }
    }

    @Test
    void aParentDeletedWhileDownHoldsNothingAnyMore() {
        try (var h = started()) {
            List<AlertEvent> seen = new ArrayList<>();
            window(h, "db", W0, false);
            window(h, "api", W0, false);
            h.monitors.pipeInput("db", null);
            h.wallClockTo(h.wallClock() + MonitorAlertProcessor.RELEASE_CHECK.toMillis());
            assertThat(events(h, seen))
                    .containsExactly("monitor/db opened", "monitor/db resolved", "monitor/api opened");
        }
    }

    @Test
    void withoutDependenciesAChildPagesAsBefore() {
        try (var h = started()) {
            h.define(monitor("api"));
            List<AlertEvent> seen = new ArrayList<>();
            window(h, "db", W0, false);
            window(h, "api", W0, false);
            assertThat(events(h, seen)).containsExactly("monitor/db opened", "monitor/api opened");
        }
    }
}
