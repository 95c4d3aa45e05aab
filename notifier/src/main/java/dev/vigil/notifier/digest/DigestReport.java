package dev.vigil.notifier.digest;

import dev.vigil.notifier.digest.DigestData.ChannelFailures;
import dev.vigil.notifier.digest.DigestData.RecordedGroup;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;

/**
 * One day's digest, delta first: what is new in the window ({@code from} to {@code to}) before what is still true
 * when it was composed.
 *
 * @param opened      incidents first seen in the window
 * @param resolved    incidents whose resolution was recorded in the window
 * @param flapping    fingerprints with {@link DigestComposer#FLAPPING_AT} incidents or more opened in the window
 * @param skipped     Vigil's own alerts that probes were skipped (a worker skipping, a region blind), per fingerprint
 * @param failures    channels with failed delivery attempts or dead letters in the window
 * @param recorded    events the digest channels recorded in the window, grouped by service and fingerprint
 * @param stillOpen   incidents open when the digest was composed, oldest first
 * @param worstUptime fingerprints with the most time in incident during the window, worst first
 */
public record DigestReport(
        LocalDate day,
        ZoneId zone,
        Instant from,
        Instant to,
        Instant composedAt,
        List<Change> opened,
        List<Change> resolved,
        List<Flapping> flapping,
        List<Skipped> skipped,
        List<ChannelFailures> failures,
        List<RecordedGroup> recorded,
        List<Open> stillOpen,
        List<Downtime> worstUptime) {

    public DigestReport {
        opened = List.copyOf(opened);
        resolved = List.copyOf(resolved);
        flapping = List.copyOf(flapping);
        skipped = List.copyOf(skipped);
        failures = List.copyOf(failures);
        recorded = List.copyOf(recorded);
        stillOpen = List.copyOf(stillOpen);
        worstUptime = List.copyOf(worstUptime);
    }

    /** True when every section is empty: a quiet day, which the digest says in so many words. */
    public boolean nothingToReport() {
        return opened.isEmpty()
                && resolved.isEmpty()
                && flapping.isEmpty()
                && skipped.isEmpty()
                && failures.isEmpty()
                && recorded.isEmpty()
                && stillOpen.isEmpty()
                && worstUptime.isEmpty();
    }

    public Duration window() {
        return Duration.between(from, to);
    }

    /** An incident opened or resolved in the window: when, and (resolved) how long it lasted. */
    public record Change(String fingerprint, String service, String severity, Instant at, Duration lasted) {}

    /** An incident still open: since when, and whether someone took it on. */
    public record Open(
            String fingerprint, String service, String severity, Instant since, Duration age, boolean acknowledged) {}

    /** Time in incident in the window, as a share of the window, and how many incidents made it up. */
    public record Downtime(
            String fingerprint, String service, Duration inIncident, double uptimePercent, int incidents) {}

    /** A fingerprint that opened several incidents in the window. */
    public record Flapping(String fingerprint, String service, int incidents) {}

    /** A skipped-probes alert: incidents opened in the window, time in incident, and whether one is still open. */
    public record Skipped(String fingerprint, int incidents, Duration inIncident, boolean openNow) {}
}
