package dev.vigil.notifier.core;

import static dev.vigil.notifier.support.TestEvents.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.Ack;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.silence.Schedule;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.schemas.silence.SilenceMatcher;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SilenceGateTest {
    private static final long HOUR = 3_600_000L;
    private final AtomicReference<SilenceMatcher> silences = new AtomicReference<>(SilenceMatcher.none());
    private final Map<String, Ack> acks = new HashMap<>();
    private long now = T0 + HOUR;

    private SilenceGate gate() {
        return new SilenceGate(silences::get, acks::get, Clock.fixed(Instant.ofEpochMilli(now), ZoneOffset.UTC));
    }

    private Optional<String> muted(AlertEvent e) {
        return gate().mutedBecause(e);
    }

    private static AlertEvent app(String fingerprint, AlertState state, Severity severity) {
        return new AlertEvent(
                1,
                AlertEvent.appEventId(fingerprint, state),
                fingerprint,
                AlertEvent.incidentIdFor(fingerprint, T0),
                state,
                severity,
                "checkout",
                null,
                "payments failing",
                Map.of(),
                Map.of("region", "eu-west"),
                1,
                T0,
                T0 + 1000,
                AlertSource.APP,
                false,
                List.of());
    }

    private static Silence silence(
            String id,
            String fingerprint,
            String service,
            Map<String, String> attributes,
            long from,
            long to,
            Schedule schedule) {
        return new Silence(
                1, id, fingerprint, service, attributes, from, to, "ops", "maintenance", from, null, schedule);
    }

    private void silence(Silence... s) {
        silences.set(new SilenceMatcher(List.of(s)));
    }

    @Test
    void anActiveMatchingSilenceMutesAnAppPageButNeverItsResolutionOrAcknowledgement() {
        silence(silence("db-work", "app/shop/*", null, Map.of(), T0, T0 + 2 * HOUR, null));
        assertThat(muted(app("app/shop/payments", AlertState.OPENED, Severity.CRITICAL)))
                .contains("silence db-work");
        assertThat(muted(app("app/shop/payments", AlertState.REMINDER, Severity.CRITICAL)))
                .contains("silence db-work");
        assertThat(muted(app("app/shop/payments", AlertState.ESCALATED, Severity.CRITICAL)))
                .contains("silence db-work");
        assertThat(muted(app("app/shop/payments", AlertState.RESOLVED, Severity.CRITICAL)))
                .isEmpty();
        assertThat(muted(app("app/shop/payments", AlertState.ACKNOWLEDGED, Severity.CRITICAL)))
                .isEmpty();
        assertThat(muted(app("app/other/payments", AlertState.OPENED, Severity.CRITICAL)))
                .isEmpty();
    }

    @Test
    void serviceAndAttributeMatchersAndTheSilencesTimeBoundsApply() {
        silence(
                silence("by-service", null, "checkout", Map.of("region", "eu-west"), T0, T0 + 2 * HOUR, null),
                silence("other-region", null, "checkout", Map.of("region", "us-east"), T0, T0 + 2 * HOUR, null));
        assertThat(muted(app("app/shop/payments", AlertState.OPENED, Severity.WARNING)))
                .contains("silence by-service");
        now = T0 + 2 * HOUR; // endsAt is exclusive
        assertThat(muted(app("app/shop/payments", AlertState.OPENED, Severity.WARNING)))
                .isEmpty();
        now = T0 - 1; // not started yet
        assertThat(muted(app("app/shop/payments", AlertState.OPENED, Severity.WARNING)))
                .isEmpty();
    }

    @Test
    void aMaintenanceWindowMutesOnlyInsideItsOccurrences() {
        // 2026-01-01 is a Thursday; the window is Thursdays 01:00-02:00 UTC
        Schedule thursdays = new Schedule(List.of("thu"), "01:00", 60, "UTC");
        silence(silence("weekly", "notifier/delivery-failing/*", null, Map.of(), T0, T0 + 30L * 24 * HOUR, thursdays));
        AlertEvent failing = app("notifier/delivery-failing/slack", AlertState.OPENED, Severity.CRITICAL);
        now = T0 + HOUR + 60_000;
        assertThat(muted(failing)).contains("silence weekly");
        now = T0 + 2 * HOUR + 60_000;
        assertThat(muted(failing)).isEmpty();
        now = T0 + 7 * 24 * HOUR + HOUR + 1;
        assertThat(muted(failing)).contains("silence weekly");
    }

    @Test
    void topologyEventsPassUntouched() {
        silence(silence("all", "*", null, Map.of(), T0, T0 + 2 * HOUR, null));
        AlertEvent probe = new AlertEvent(
                1,
                "monitor/x@1/opened/1",
                "monitor/x",
                "monitor/x@1",
                AlertState.OPENED,
                Severity.CRITICAL,
                "x",
                null,
                "x is down",
                Map.of(),
                Map.of(),
                1,
                1L,
                1L,
                AlertSource.PROBE,
                false,
                null);
        assertThat(muted(probe)).isEmpty();
        assertThat(muted(app("app/shop/payments", AlertState.OPENED, Severity.CRITICAL)))
                .contains("silence all");
    }

    @Test
    void anAcknowledgementHoldsTheReSentPagesOfItsIncidentUntilItExpiresOrTheIncidentEscalates() {
        AlertEvent opened = app("app/shop/payments", AlertState.OPENED, Severity.WARNING);
        acks.put(
                opened.fingerprint(),
                new Ack(
                        1,
                        opened.fingerprint(),
                        opened.incidentId(),
                        "alice",
                        T0 + 1000,
                        T0 + 2 * HOUR,
                        null,
                        Severity.WARNING));
        assertThat(muted(opened)).contains("acknowledged by alice");
        assertThat(muted(app("app/shop/payments", AlertState.REMINDER, Severity.WARNING)))
                .contains("acknowledged by alice");
        // more severe than when acknowledged: new information, it pages
        assertThat(muted(app("app/shop/payments", AlertState.OPENED, Severity.CRITICAL)))
                .isEmpty();
        assertThat(muted(app("app/shop/payments", AlertState.ESCALATED, Severity.CRITICAL)))
                .isEmpty();
        // resolutions always go out
        assertThat(muted(app("app/shop/payments", AlertState.RESOLVED, Severity.WARNING)))
                .isEmpty();
        // expired
        now = T0 + 2 * HOUR;
        assertThat(muted(opened)).isEmpty();
    }

    @Test
    void anAcknowledgementOfAnEarlierIncidentOfTheSameFingerprintHoldsNothing() {
        AlertEvent opened = app("app/shop/payments", AlertState.OPENED, Severity.WARNING);
        acks.put(
                opened.fingerprint(),
                new Ack(
                        1,
                        opened.fingerprint(),
                        "app/shop/payments@1",
                        "alice",
                        T0 + 1000,
                        null,
                        null,
                        Severity.WARNING));
        assertThat(muted(opened)).isEmpty();
    }

    @Test
    void theSilencesSnapshotIsReadOnEveryEvent() {
        AlertEvent opened = app("app/shop/payments", AlertState.OPENED, Severity.WARNING);
        SilenceGate g = gate();
        assertThat(g.mutedBecause(opened)).isEmpty();
        silence(silence("late", "app/shop/payments", null, Map.of(), T0, T0 + 2 * HOUR, null));
        assertThat(g.mutedBecause(opened)).contains("silence late");
        silences.set(SilenceMatcher.none());
        assertThat(g.mutedBecause(opened)).isEmpty();
    }
}
