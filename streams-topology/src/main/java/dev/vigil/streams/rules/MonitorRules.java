package dev.vigil.streams.rules;

import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.HeartbeatSchedules;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.contract.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The built-in per-monitor rules, as pure functions of the monitor's rule state, its definition and one input. The
 * evaluation time is the verdict's (or probe result's) {@code windowStart}, so a replay gives the same evaluations.
 *
 * <p>Alerting judges a window on target evidence only: the regions that reported a result of a probe of the target. A
 * missing region (its worker dead, overloaded or shutting down, the region served by no worker, its result skipped or
 * too late) is Vigil's own gap, never the target's failure, and is left to Vigil's self-alerts.
 * <ul>
 *   <li>availability ({@code monitor/<id>}):
 *     <ul>
 *       <li>no region reported a target failure, and at least one reported: healthy (so an open incident resolves
 *           while another region is blind), and the degraded streak starts again;</li>
 *       <li>at least one target failure: {@code down} is a breach at the definition's severity; {@code degraded} for
 *           {@value #DEGRADED_TO_BREACH} such windows in a row is a breach at warning, and while the incident is
 *           open (firing or resolving) any such {@code degraded} is a breach at warning (the incident keeps its higher
 *           severity: no de-escalation message);</li>
 *       <li>nothing reported ({@code unknown}): neither breach nor heal.</li>
 *     </ul>
 *     A window whose only non-successes are missing regions never breaches and is never a step of the
 *     degraded-in-a-row rule. {@code down} stays "failures are a strict majority of the expected regions", so with
 *     regions missing a target failure may give {@code degraded} where all regions reporting would give {@code down};</li>
 *   <li>no data ({@code monitor/<id>/no-data}): {@code unknown} for {@value #UNKNOWN_TO_BREACH} windows in a
 *       row is a breach at warning (and every further {@code unknown}); any decided verdict is healthy. An
 *       {@code unknown} window the caller knows to be Vigil's gap ({@link Facts#vigilGap}: every missing region skipped,
 *       blind or without a recent heartbeat) is folded into the region's self-alert: it neither breaches nor counts,
 *       and the streak starts again;</li>
 *   <li>TLS ({@code monitor/<id>/tls}), from probe results that carry {@code tlsDaysLeft}: at most
 *       {@code tlsExpiryWarnDays} days left is a breach at warning, more is healthy. Several regions report the
 *       same window: per window at most one breach and, if none, one healthy evaluation are produced.</li>
 * </ul>
 * A heartbeat monitor's verdicts go through the same availability rule (its one region is {@code push}; a window
 * is never {@code unknown}, since a missed ping is itself the failure). Only the summaries differ, so that the page
 * says what happened rather than "failing in push": "… missed its heartbeat: no ping since …" or "… reported a
 * failure …". Its alerts keep source {@code probe}: {@code heartbeat} is the source of worker-health alerts.
 * A verdict for a window not after the last one applied is ignored (a duplicate or late verdict).
 */
public final class MonitorRules {
    public static final int DEGRADED_TO_BREACH = 2;
    public static final int UNKNOWN_TO_BREACH = 3;
    static final String COMPONENT_TYPE = "monitor";
    /**
     * Of {@link #attributes}, the ones that change from window to window; the others come from the definition alone
     * ({@link #definitionAttributes}).
     */
    public static final Set<String> PER_WINDOW_ATTRIBUTES =
            Set.of("status", "windowStart", "failingRegions", "missingRegions");

    private final AlertLinks links;

    public MonitorRules(AlertLinks links) {
        this.links = links;
    }

    /** The rule state after an input, and the evaluations to feed the state machine (in this order). */
    public record Result(MonitorRuleState state, List<Evaluation> evaluations) {
        public Result {
            evaluations = List.copyOf(evaluations);
        }
    }

    /**
     * What the caller knows about a verdict beyond the verdict itself.
     *
     * @param availabilityOpen whether the {@code monitor/<id>} incident is open (firing or resolving)
     * @param noDataOpen whether the {@code monitor/<id>/no-data} incident is open
     * @param vigilGap whether every missing region of the verdict is a gap Vigil already knows of and alerts on itself
     *                 (skipped, blind, or its workers silent): an {@code unknown} window then does not count towards
     *                 no data
     */
    public record Facts(boolean availabilityOpen, boolean noDataOpen, boolean vigilGap) {}

    /**
     * @param state the monitor's rule state ({@link MonitorRuleState#INITIAL} when none)
     * @param availabilityOpen whether the {@code monitor/<id>} incident is open (firing or resolving)
     */
    public Result onVerdict(
            MonitorRuleState state, MonitorDefinition def, MonitorStatus verdict, boolean availabilityOpen) {
        return evaluate(state, def, verdict, availabilityOpen, true, true, false);
    }

    /**
     * As {@link #onVerdict(MonitorRuleState, MonitorDefinition, MonitorStatus, boolean)}, without the healthy
     * evaluations of incidents that are not open: the state machine leaves those unchanged and emits nothing, and
     * building them (attributes, links, summaries) was most of the rules' cost for a healthy fleet.
     *
     * @param noDataOpen whether the {@code monitor/<id>/no-data} incident is open; when false, and for availability
     *                   when {@code availabilityOpen} is false, healthy evaluations are left out
     */
    public Result onVerdict(
            MonitorRuleState state,
            MonitorDefinition def,
            MonitorStatus verdict,
            boolean availabilityOpen,
            boolean noDataOpen) {
        return onVerdict(state, def, verdict, new Facts(availabilityOpen, noDataOpen, false));
    }

    /** As {@link #onVerdict(MonitorRuleState, MonitorDefinition, MonitorStatus, boolean, boolean)}, with every fact. */
    public Result onVerdict(MonitorRuleState state, MonitorDefinition def, MonitorStatus verdict, Facts facts) {
        return evaluate(
                state,
                def,
                verdict,
                facts.availabilityOpen(),
                facts.availabilityOpen(),
                facts.noDataOpen(),
                facts.vigilGap());
    }

    private Result evaluate(
            MonitorRuleState state,
            MonitorDefinition def,
            MonitorStatus verdict,
            boolean availabilityOpen,
            boolean availabilityHealthyCounts,
            boolean noDataHealthyCounts,
            boolean vigilGap) {
        if (!def.id().equals(verdict.monitorId())) {
            throw new IllegalArgumentException(
                    "verdict of " + verdict.monitorId() + " evaluated with definition " + def.id());
        }
        long at = verdict.windowStart();
        if (at <= state.lastWindowStart()) {
            return new Result(state, List.of());
        }
        Status s = verdict.status();
        boolean reported = !verdict.regions().isEmpty();
        boolean targetFailed = verdict.targetFailures() > 0;
        // every region that probed the target saw it succeed: whatever is missing is Vigil's gap, not the target's
        boolean targetHealthy = reported && !targetFailed;
        int degraded = s == Status.DEGRADED && targetFailed ? state.consecutiveDegraded() + 1 : 0;
        boolean gapUnknown = s == Status.UNKNOWN && vigilGap;
        int unknown = s == Status.UNKNOWN && !gapUnknown ? state.consecutiveUnknown() + 1 : 0;
        MonitorRuleState next = new MonitorRuleState(
                at, degraded, unknown, state.tlsWindowStart(), state.tlsBreachInWindow(), state.tlsHealthyInWindow());

        boolean availabilityBreach = s == Status.DOWN
                || s == Status.DEGRADED && targetFailed && (availabilityOpen || degraded >= DEGRADED_TO_BREACH);
        boolean noDataBreach = s == Status.UNKNOWN && unknown >= UNKNOWN_TO_BREACH;
        if (!availabilityBreach
                && !noDataBreach
                && !(targetHealthy && availabilityHealthyCounts)
                && !(s != Status.UNKNOWN && noDataHealthyCounts)) {
            return new Result(next, List.of());
        }
        List<Evaluation> out = new ArrayList<>(2);
        String fp = Fingerprints.monitor(def.id());
        Map<String, String> attrs = attributes(def, verdict);
        Map<String, String> monitorLinks = links.monitor(fp, def.id(), def.links());
        if (s == Status.DOWN) {
            out.add(Evaluation.breach(
                    fp,
                    at,
                    def.severity(),
                    def.service(),
                    COMPONENT_TYPE,
                    downSummary(def, verdict),
                    monitorLinks,
                    attrs,
                    AlertSource.PROBE));
        } else if (availabilityBreach) {
            out.add(Evaluation.breach(
                    fp,
                    at,
                    Severity.WARNING,
                    def.service(),
                    COMPONENT_TYPE,
                    def.name() + " is degraded" + detail(verdict),
                    monitorLinks,
                    attrs,
                    AlertSource.PROBE));
        } else if (targetHealthy && availabilityHealthyCounts) {
            out.add(Evaluation.healthy(
                    fp,
                    at,
                    def.service(),
                    COMPONENT_TYPE,
                    upSummary(def, verdict),
                    monitorLinks,
                    attrs,
                    AlertSource.PROBE));
        }
        // else: unknown, or degraded below the streak: neither breaches nor heals availability
        String noData = Fingerprints.noData(def.id());
        Map<String, String> noDataLinks = links.monitor(noData, def.id(), def.links());
        if (noDataBreach) {
            out.add(Evaluation.breach(
                    noData,
                    at,
                    Severity.WARNING,
                    def.service(),
                    COMPONENT_TYPE,
                    "No probe results for " + def.name() + " in " + unknown + " windows in a row",
                    noDataLinks,
                    attrs,
                    AlertSource.PROBE));
        } else if (s != Status.UNKNOWN && noDataHealthyCounts) {
            out.add(Evaluation.healthy(
                    noData,
                    at,
                    def.service(),
                    COMPONENT_TYPE,
                    "Probe results for " + def.name() + " arrive again",
                    noDataLinks,
                    attrs,
                    AlertSource.PROBE));
        }
        return new Result(next, out);
    }

    /** A healthy window: up, or up wherever a region probed the target while others were Vigil's gap. */
    private static String upSummary(MonitorDefinition def, MonitorStatus v) {
        if (!def.isProbed()) {
            return def.name() + " is up: its heartbeat arrived";
        }
        if (v.missingRegions().isEmpty()) {
            return def.name() + " is up";
        }
        return def.name() + " is up in " + String.join(", ", v.regions().keySet()) + " (no result from "
                + String.join(", ", v.missingRegions()) + ")";
    }

    /** The TLS rule, on one probe result of the monitor. */
    public Result onProbeResult(MonitorRuleState state, MonitorDefinition def, ProbeResult r) {
        if (!def.id().equals(r.monitorId())) {
            throw new IllegalArgumentException("result of " + r.monitorId() + " evaluated with definition " + def.id());
        }
        if (r.tlsDaysLeft() == null || r.windowStart() < state.tlsWindowStart()) {
            return new Result(state, List.of());
        }
        boolean sameWindow = r.windowStart() == state.tlsWindowStart();
        boolean breachSeen = sameWindow && state.tlsBreachInWindow();
        boolean healthySeen = sameWindow && state.tlsHealthyInWindow();
        int days = r.tlsDaysLeft();
        boolean breach = days <= def.tlsExpiryWarnDays();
        String fp = Fingerprints.tls(def.id());
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("monitorId", def.id());
        attrs.put("region", r.region());
        attrs.put("tlsDaysLeft", Integer.toString(days));
        attrs.put("tlsExpiryWarnDays", Integer.toString(def.tlsExpiryWarnDays()));
        Map<String, String> monitorLinks = links.monitor(fp, def.id(), def.links());
        Evaluation ev = null;
        if (breach && !breachSeen) {
            String when = days < 0
                    ? "expired " + (-days) + " days ago"
                    : days == 0 ? "expires today" : "expires in " + days + " days";
            ev = Evaluation.breach(
                    fp,
                    r.windowStart(),
                    Severity.WARNING,
                    def.service(),
                    COMPONENT_TYPE,
                    "TLS certificate of " + def.name() + " " + when,
                    monitorLinks,
                    attrs,
                    AlertSource.PROBE);
            breachSeen = true;
        } else if (!breach && !breachSeen && !healthySeen) {
            ev = Evaluation.healthy(
                    fp,
                    r.windowStart(),
                    def.service(),
                    COMPONENT_TYPE,
                    "TLS certificate of " + def.name() + " is valid for " + days + " more days",
                    monitorLinks,
                    attrs,
                    AlertSource.PROBE);
            healthySeen = true;
        }
        MonitorRuleState next = new MonitorRuleState(
                state.lastWindowStart(),
                state.consecutiveDegraded(),
                state.consecutiveUnknown(),
                r.windowStart(),
                breachSeen,
                healthySeen);
        return new Result(next, ev == null ? List.of() : List.of(ev));
    }

    /**
     * The attributes of the availability ({@code monitor/<id>}) and no-data evaluations of a verdict: what a silence's
     * attribute matchers see. Public so that the uptime rollup asks the silences exactly what alerting asks them.
     */
    public static Map<String, String> attributes(MonitorDefinition def, MonitorStatus v) {
        Map<String, String> a = new LinkedHashMap<>();
        a.put("monitorId", def.id());
        a.put("status", v.status().wire());
        a.put("windowStart", Long.toString(v.windowStart()));
        if (def.component() != null) {
            a.put("component", def.component());
        }
        String failing = failingRegions(v);
        if (!failing.isEmpty()) {
            a.put("failingRegions", cut(failing));
        }
        if (!v.missingRegions().isEmpty()) {
            a.put("missingRegions", cut(String.join(",", v.missingRegions())));
        }
        return a;
    }

    /** Of {@link #attributes}, those the definition alone fixes: {@code monitorId} and, if set, {@code component}. */
    public static Map<String, String> definitionAttributes(MonitorDefinition def) {
        Map<String, String> a = new LinkedHashMap<>();
        a.put("monitorId", def.id());
        if (def.component() != null) {
            a.put("component", def.component());
        }
        return a;
    }

    private static String failingRegions(MonitorStatus v) {
        List<String> failing = new ArrayList<>();
        v.regions().forEach((region, result) -> {
            if (result.outcome() != Outcome.SUCCESS) {
                failing.add(region);
            }
        });
        return String.join(",", failing);
    }

    /**
     * What a {@code down} verdict says. A heartbeat window names what went wrong, in the monitor's zone: the window had
     * no ping by its end plus grace, or the job reported a failure. The window's end comes from the definition, so
     * the summary is the same on a replay.
     */
    static String downSummary(MonitorDefinition def, MonitorStatus v) {
        if (!def.isProbed()) {
            MonitorStatus.RegionResult push = v.regions().get(MonitorDefinition.PUSH_REGION);
            ErrorKind kind = push == null ? null : push.errorKind();
            java.time.ZoneId zone = java.time.ZoneId.of(def.heartbeat().zone());
            if (kind == ErrorKind.MISSED_HEARTBEAT) {
                long end = HeartbeatSchedules.windowAt(def, v.windowStart()).end();
                return def.name() + " missed its heartbeat: no ping since " + time(v.windowStart(), zone)
                        + " (the window ended " + time(end, zone) + ", grace "
                        + def.heartbeat().graceSeconds() + " s)";
            }
            if (kind == ErrorKind.REPORTED_FAILURE) {
                return def.name() + " reported a failure (heartbeat window from " + time(v.windowStart(), zone) + ")";
            }
        }
        return def.name() + " is down" + detail(v);
    }

    private static String time(long epochMs, java.time.ZoneId zone) {
        return java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(
                java.time.Instant.ofEpochMilli(epochMs).atZone(zone));
    }

    private static String detail(MonitorStatus v) {
        String failing = failingRegions(v);
        StringBuilder sb = new StringBuilder();
        if (!failing.isEmpty()) {
            sb.append(": failing in ").append(failing.replace(",", ", "));
        }
        if (!v.missingRegions().isEmpty()) {
            sb.append(sb.length() == 0 ? ": " : "; ").append("no result from ");
            for (int i = 0; i < v.missingRegions().size(); i++) {
                String region = v.missingRegions().get(i);
                sb.append(i == 0 ? "" : ", ").append(region);
                if (v.skipped().containsKey(region)) {
                    sb.append(" (skipped: ")
                            .append(v.skipped().get(region).wire())
                            .append(')');
                }
            }
        }
        return sb.toString();
    }

    private static String cut(String s) {
        return s.length() <= 256 ? s : s.substring(0, 255) + "…";
    }
}
