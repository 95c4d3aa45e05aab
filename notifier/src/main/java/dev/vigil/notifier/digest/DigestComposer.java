package dev.vigil.notifier.digest;

import dev.vigil.notifier.digest.DigestData.ChannelFailures;
import dev.vigil.notifier.digest.DigestReport.Change;
import dev.vigil.notifier.digest.DigestReport.Downtime;
import dev.vigil.notifier.digest.DigestReport.Flapping;
import dev.vigil.notifier.digest.DigestReport.Open;
import dev.vigil.notifier.digest.DigestReport.Skipped;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Composes a {@link DigestReport} from what the store holds for its window. Pure: the same data, window and time
 * give the same report. Incidents are those of severity warning or critical (info pages nobody; the info events a
 * digest channel recorded have their own section); Vigil's skipped-probes alerts have their own section too.
 */
public final class DigestComposer {
    /** Incidents of one fingerprint opened in one window from which it counts as flapping. */
    public static final int FLAPPING_AT = 3;
    /** The fingerprints listed under the worst uptime. */
    public static final int WORST_UPTIME_MAX = 5;
    /** Fingerprints of Vigil's alerts that probes were not run: a worker skipping its schedule, a region blind. */
    private static final List<String> SKIPPED_PROBES = List.of("vigil/worker-skipping/", "vigil/region-blind/");

    private static final String INFO = "info";

    private DigestComposer() {}

    public static DigestReport compose(
            LocalDate day, ZoneId zone, Instant from, Instant to, Instant now, DigestData data) {
        List<Change> opened = new ArrayList<>();
        List<Change> resolved = new ArrayList<>();
        List<Open> stillOpen = new ArrayList<>();
        Map<String, Tally> downtime = new LinkedHashMap<>();
        Map<String, Tally> skipped = new LinkedHashMap<>();
        for (IncidentRow i : data.incidents()) {
            if (!i.firstSeen().isBefore(to)) {
                continue; // opened after the window: the next digest's news
            }
            boolean openedInWindow = !i.firstSeen().isBefore(from);
            Duration inWindow = overlap(i, from, to);
            if (isSkippedProbes(i.fingerprint())) {
                Tally t = skipped.computeIfAbsent(i.fingerprint(), k -> new Tally(i.service()));
                t.add(inWindow, openedInWindow);
                t.openNow |= i.open();
                continue;
            }
            if (INFO.equals(i.severity())) {
                continue; // pages nobody: shown where a digest channel recorded it, not as an incident
            }
            if (openedInWindow) {
                opened.add(new Change(i.fingerprint(), i.service(), i.severity(), i.firstSeen(), null));
            }
            if (!i.open() && !i.resolvedAt().isBefore(from) && i.resolvedAt().isBefore(to)) {
                resolved.add(new Change(
                        i.fingerprint(),
                        i.service(),
                        i.severity(),
                        i.resolvedAt(),
                        Duration.between(i.firstSeen(), i.resolvedAt())));
            }
            if (i.open()) {
                stillOpen.add(new Open(
                        i.fingerprint(),
                        i.service(),
                        i.severity(),
                        i.firstSeen(),
                        Duration.between(i.firstSeen(), now).isNegative()
                                ? Duration.ZERO
                                : Duration.between(i.firstSeen(), now),
                        i.acknowledged()));
            }
            if (!i.selfAlert()) {
                downtime.computeIfAbsent(i.fingerprint(), k -> new Tally(i.service()))
                        .add(inWindow, openedInWindow);
            }
        }
        opened.sort(Comparator.comparing(Change::at).thenComparing(Change::fingerprint));
        resolved.sort(Comparator.comparing(Change::at).thenComparing(Change::fingerprint));
        stillOpen.sort(Comparator.comparing(Open::since).thenComparing(Open::fingerprint));

        Duration window = Duration.between(from, to);
        List<Downtime> worst = new ArrayList<>();
        List<Flapping> flapping = new ArrayList<>();
        downtime.forEach((fp, t) -> {
            if (t.inIncident.compareTo(Duration.ZERO) > 0) {
                worst.add(new Downtime(fp, t.service, t.inIncident, uptime(t.inIncident, window), t.incidents));
            }
            if (t.opened >= FLAPPING_AT) {
                flapping.add(new Flapping(fp, t.service, t.opened));
            }
        });
        worst.sort(Comparator.comparing(Downtime::inIncident).reversed().thenComparing(Downtime::fingerprint));
        flapping.sort(Comparator.comparingInt(Flapping::incidents).reversed().thenComparing(Flapping::fingerprint));
        List<Skipped> skips = new ArrayList<>();
        skipped.forEach((fp, t) -> skips.add(new Skipped(fp, t.opened, t.inIncident, t.openNow)));
        skips.sort(Comparator.comparing(Skipped::fingerprint));
        List<ChannelFailures> failures = data.failures().stream()
                .filter(f -> f.failedAttempts() > 0 || f.deadLettered() > 0)
                .sorted(Comparator.comparing(ChannelFailures::channel))
                .toList();
        return new DigestReport(
                day,
                zone,
                from,
                to,
                now,
                opened,
                resolved,
                flapping,
                skips,
                failures,
                data.recorded(),
                stillOpen,
                worst.subList(0, Math.min(WORST_UPTIME_MAX, worst.size())));
    }

    static boolean isSkippedProbes(String fingerprint) {
        return SKIPPED_PROBES.stream().anyMatch(fingerprint::startsWith);
    }

    /** The part of the incident inside the window (open ones: up to the window's end). */
    static Duration overlap(IncidentRow i, Instant from, Instant to) {
        Instant start = i.firstSeen().isAfter(from) ? i.firstSeen() : from;
        Instant end = i.open() || i.resolvedAt().isAfter(to) ? to : i.resolvedAt();
        return end.isAfter(start) ? Duration.between(start, end) : Duration.ZERO;
    }

    private static double uptime(Duration down, Duration window) {
        if (window.isZero() || window.isNegative()) {
            return 100.0;
        }
        double share = (double) down.toMillis() / window.toMillis();
        return Math.max(0.0, 100.0 * (1.0 - share));
    }

    private static final class Tally {
        final String service;
        Duration inIncident = Duration.ZERO;
        int incidents;
        int opened;
        boolean openNow;

        Tally(String service) {
            this.service = service;
        }

        void add(Duration d, boolean openedInWindow) {
            inIncident = inIncident.plus(d);
            if (d.compareTo(Duration.ZERO) > 0 || openedInWindow) {
                incidents++;
            }
            if (openedInWindow) {
                opened++;
            }
        }
    }
}
