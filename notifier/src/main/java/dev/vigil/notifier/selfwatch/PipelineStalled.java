package dev.vigil.notifier.selfwatch;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import java.time.Duration;
import java.util.Map;

/**
 * The notifier's own {@value #FINGERPRINT} alert: the canary has not passed within its bound, so some stage between
 * the probe and the notifier stopped. It is a warning, not critical: the external heartbeat service is the page of
 * record for a stall (it also pages when the stalled stage is this notifier), and this alert tells the team's
 * channels the same story without paging the on-call twice. Each stall is an incident of its own
 * ({@code vigil/pipeline-stalled@<start>}) with event ids of its own, so a second stall within the dedupe window
 * still pages.
 */
public final class PipelineStalled {
    public static final String FINGERPRINT = "vigil/pipeline-stalled";

    private PipelineStalled() {}

    public static AlertEvent opened(long stallStartMs, double ageSeconds, Duration bound) {
        String incident = AlertEvent.incidentIdFor(FINGERPRINT, stallStartMs);
        return new AlertEvent(
                1,
                incident + "/opened",
                FINGERPRINT,
                incident,
                AlertState.OPENED,
                Severity.WARNING,
                "vigil-notifier",
                "service",
                "Vigil's end-to-end canary has not passed for " + Math.round(ageSeconds) + " s (bound "
                        + bound.toSeconds() + " s): a stage between probe and notifier is stalled",
                Map.of(),
                Map.of(
                        "canaryAgeSeconds",
                        Long.toString(Math.round(ageSeconds)),
                        "boundSeconds",
                        Long.toString(bound.toSeconds())),
                1,
                stallStartMs,
                stallStartMs,
                AlertSource.APP,
                false,
                null);
    }

    public static AlertEvent resolved(long stallStartMs, long nowMs) {
        String incident = AlertEvent.incidentIdFor(FINGERPRINT, stallStartMs);
        return new AlertEvent(
                1,
                incident + "/resolved",
                FINGERPRINT,
                incident,
                AlertState.RESOLVED,
                Severity.WARNING,
                "vigil-notifier",
                "service",
                "Vigil's end-to-end canary passes again",
                Map.of(),
                Map.of(),
                1,
                stallStartMs,
                Math.max(stallStartMs, nowMs),
                AlertSource.APP,
                false,
                null);
    }
}
