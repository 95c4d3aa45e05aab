package dev.vigil.streams.uptime;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.silence.Schedule;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.streams.rules.Fingerprints;
import dev.vigil.streams.rules.MonitorRules;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Maintenance windows (docs/design.md#incident-lifecycle) as the uptime rollup and report see them: the silences with a
 * {@link Schedule}. A one-off silence is never maintenance: one added mid-outage to stop the noise is not planned
 * work, and the outage it covers still counts against uptime like any other.
 *
 * <p>A monitor's window is <b>under maintenance</b> when a maintenance window is active at the window start and
 * matches what the window's verdict raises on the availability alert: fingerprint {@code monitor/<id>}, the
 * definition's service and {@link MonitorRules#attributes} of the verdict, at the window start, which is what
 * {@code MonitorAlertProcessor} asks the silences ({@link UptimeProcessor} decides it per verdict). So it means "a
 * maintenance window would have muted this window's page". Pure functions of their arguments, so a replay over the
 * same silences gives the same answers.
 */
public final class MaintenanceWindows {
    private static final long MINUTE_MS = 60_000L;

    private MaintenanceWindows() {}

    /** One occurrence of a maintenance window: {@code [from, to)} in epoch ms, cut at the series' endsAt. */
    public record Occurrence(String silenceId, long from, long to, String reason) {}

    /** The earliest occurrences, at most the limit asked for; {@code truncated} when there were more. */
    public record Occurrences(List<Occurrence> occurrences, boolean truncated) {
        public Occurrences {
            occurrences = List.copyOf(occurrences);
        }
    }

    public static boolean isMaintenance(Silence s) {
        return s != null && s.schedule() != null;
    }

    /**
     * True when {@code s}'s fingerprint matcher accepts {@code fingerprint} (or it has none), leaving its service and
     * attribute matchers aside: a test that needs no definition, to skip most silences before reading one.
     */
    static boolean fingerprintAccepts(Silence s, String fingerprint) {
        return s.matches(fingerprint, s.service(), s.attributes());
    }

    /**
     * The occurrences of the maintenance windows among {@code silences} that overlap {@code [from, to)} and may cover
     * windows of monitor {@code monitorId}, earliest first (then by silence id), at most {@code limit}.
     *
     * <p>Without a verdict, "may cover" is judged on the fingerprint, the definition's service and the attributes the
     * definition fixes ({@link MonitorRules#definitionAttributes}); an attribute matcher on a per-window attribute
     * ({@link MonitorRules#PER_WINDOW_ATTRIBUTES}, such as {@code status}) is taken as met, since some window may
     * have had that value. The daily counts, judged per verdict, say which windows it did cover.
     *
     * @param def the monitor's definition, or null (a deleted monitor): then no service and only {@code monitorId}
     */
    public static Occurrences overlapping(
            Iterable<Silence> silences, String monitorId, MonitorDefinition def, long from, long to, int limit) {
        String fingerprint = Fingerprints.monitor(monitorId);
        Map<String, String> fixed =
                def == null ? Map.of("monitorId", monitorId) : MonitorRules.definitionAttributes(def);
        String service = def == null ? null : def.service();
        List<Occurrence> all = new ArrayList<>();
        boolean more = false;
        for (Silence s : silences) {
            if (!isMaintenance(s) || !s.matches(fingerprint, service, withPerWindowMatchersMet(fixed, s))) {
                continue;
            }
            // the earliest `limit` overall are among each series' earliest `limit`
            more |= occurrences(s, from, to, limit, all);
        }
        all.sort(Comparator.comparingLong(Occurrence::from).thenComparing(Occurrence::silenceId));
        if (all.size() > limit) {
            return new Occurrences(all.subList(0, limit), true);
        }
        return new Occurrences(all, more);
    }

    private static Map<String, String> withPerWindowMatchersMet(Map<String, String> fixed, Silence s) {
        Map<String, String> attributes = null;
        for (var e : s.attributes().entrySet()) {
            if (MonitorRules.PER_WINDOW_ATTRIBUTES.contains(e.getKey())) {
                if (attributes == null) {
                    attributes = new LinkedHashMap<>(fixed);
                }
                attributes.put(e.getKey(), e.getValue());
            }
        }
        return attributes == null ? fixed : attributes;
    }

    /**
     * Adds the occurrences of {@code s} (a maintenance window) in force at some instant of {@code [from, to)}, at most
     * {@code limit}; true when there were more. An occurrence is in force from its start (at or after startsAt,
     * before endsAt) for its duration, cut at endsAt, as {@link Silence#activeAt} judges it.
     */
    static boolean occurrences(Silence s, long from, long to, int limit, List<Occurrence> out) {
        Schedule schedule = s.schedule();
        long length = schedule.durationMinutes() * MINUTE_MS;
        long end = Math.min(to, s.endsAt());
        // an occurrence that started up to a duration before `from` may still be in force at `from`
        long cursor = Math.max(s.startsAt(), from - length + 1);
        int added = 0;
        while (cursor < end) {
            OptionalLong next = schedule.nextStart(cursor);
            if (next.isEmpty() || next.getAsLong() >= end) {
                return false;
            }
            long start = next.getAsLong();
            long stop = Math.min(start + length, s.endsAt());
            if (stop > from) {
                if (added == limit) {
                    return true;
                }
                out.add(new Occurrence(s.id(), start, stop, s.reason()));
                added++;
            }
            cursor = start + 1;
        }
        return false;
    }
}
