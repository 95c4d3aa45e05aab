package dev.vigil.streams.selfwatch;

import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.RegionStatus;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.streams.rules.AlertLinks;
import dev.vigil.streams.rules.Evaluation;
import dev.vigil.streams.rules.Fingerprints;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Vigil's alerts about its own gaps, as pure functions of what the region watch knows at wall-clock time {@code at}.
 * Each gap is one incident with its own fingerprint, through the same state machine as every alert (reminders,
 * acknowledgements, silences), and never a page about a target:
 * <ul>
 *   <li>{@code vigil/region-blind/<region>} (critical): monitors name the region and no live worker serves it, whether
 *       its workers died or none ever served it (then the summary says "unserved"). The page says how many monitors
 *       it leaves unwatched there. Healthy once a live worker serves it again or no monitor names it.</li>
 *   <li>{@code vigil/worker-skipping/<region>/<workerId>} (warning): a worker that skipped more than the configured
 *       share of its probes over its recent heartbeats, and at least the configured number.</li>
 *   <li>{@code vigil/dead-letters} (warning): records reached the dead-letter topic; healthy after a quiet period.</li>
 * </ul>
 */
public final class SelfWatchRules {
    /** The service every self-alert names, so one silence on it covers Vigil's own alerts. */
    public static final String SERVICE = "vigil";

    private final AlertLinks links;

    public SelfWatchRules(AlertLinks links) {
        this.links = links;
    }

    /**
     * Critical, not warning: while a region is blind the monitors that name it are not watched from there at all, those
     * that name only it not at all, and this one page stands in for every page their outages would have raised (their
     * own no-data pages are folded into it). A gap of that reach needs someone now, as a down monitor does.
     */
    public Evaluation regionBlind(RegionStatus picture, long at) {
        String region = picture.region();
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("region", region);
        attrs.put("monitorsNaming", Integer.toString(picture.monitorsNaming()));
        attrs.put("liveWorkers", Integer.toString(picture.liveWorkers()));
        attrs.put("knownWorkers", Integer.toString(picture.knownWorkers()));
        if (picture.lastHeartbeatAt() != null) {
            attrs.put("lastHeartbeatAt", Long.toString(picture.lastHeartbeatAt()));
        }
        String fp = Fingerprints.regionBlind(region);
        if (picture.blind()) {
            String unwatched = picture.monitorsNaming()
                    + (picture.monitorsNaming() == 1 ? " monitor names it and is" : " monitors name it and are")
                    + " unwatched from there";
            String summary = picture.everServed()
                    ? "Region " + region + " is blind: no live probe worker serves it (last heartbeat "
                            + Math.max(0, (at - picture.lastHeartbeatAt()) / 1000) + " s ago); " + unwatched
                    : "Region " + region + " is unserved: no probe worker has ever served it; " + unwatched;
            return Evaluation.breach(
                    fp,
                    at,
                    Severity.CRITICAL,
                    SERVICE,
                    "region",
                    summary,
                    links.workers(fp),
                    attrs,
                    AlertSource.HEARTBEAT);
        }
        String summary = picture.monitorsNaming() == 0
                ? "No monitor names region " + region + " any more"
                : "Region " + region + " is served again by " + picture.liveWorkers() + " live probe worker"
                        + (picture.liveWorkers() == 1 ? "" : "s");
        return Evaluation.healthy(fp, at, SERVICE, "region", summary, links.workers(fp), attrs, AlertSource.HEARTBEAT);
    }

    /**
     * @param skips the worker's probes over its recent heartbeats, null when not known (fewer than two heartbeats with
     *              counters): healthy
     */
    public Evaluation workerSkipping(
            String region, String workerId, RegionWatch.Skips skips, double maxShare, int minimum, long at) {
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("region", region);
        attrs.put("workerId", workerId.length() <= 256 ? workerId : workerId.substring(0, 256));
        String fp = Fingerprints.workerSkipping(region, workerId);
        String who = "Probe worker " + Fingerprints.segment(workerId) + " in " + region;
        if (skips != null) {
            attrs.put("probesStarted", Long.toString(skips.started()));
            attrs.put("probesSkipped", Long.toString(skips.skipped()));
        }
        if (skips != null && skips.skipped() >= minimum && skips.share() > maxShare) {
            String summary = who + " skips probes: " + skips.skipped() + " of " + (skips.started() + skips.skipped())
                    + " (" + String.format(Locale.ROOT, "%.1f", skips.share() * 100) + " %) over the last "
                    + skips.spanMs() / 1000 + " s; its monitors' windows go unwatched from " + region;
            return Evaluation.breach(
                    fp,
                    at,
                    Severity.WARNING,
                    SERVICE,
                    "worker",
                    summary,
                    links.workers(fp),
                    attrs,
                    AlertSource.HEARTBEAT);
        }
        return Evaluation.healthy(
                fp,
                at,
                SERVICE,
                "worker",
                who + " probes its monitors again",
                links.workers(fp),
                attrs,
                AlertSource.HEARTBEAT);
    }

    /** Records reached the dead-letter topic ({@code count} since {@code firstAt}); healthy once quiet. */
    public Evaluation deadLetters(DeadLetterWatch watch, boolean quiet, String topic, long at) {
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("topic", topic);
        attrs.put("deadLetters", Long.toString(watch.count()));
        attrs.put("lastDeadLetterAt", Long.toString(watch.lastAt()));
        String fp = Fingerprints.deadLetters();
        if (!quiet) {
            String summary = watch.count() + (watch.count() == 1 ? " record" : " records") + " reached " + topic
                    + " since " + java.time.Instant.ofEpochMilli(watch.firstAt())
                    + ": Vigil could not read or process them (read the topic for the cause)";
            return Evaluation.breach(
                    fp,
                    at,
                    Severity.WARNING,
                    SERVICE,
                    "pipeline",
                    summary,
                    incidentLink(fp),
                    attrs,
                    AlertSource.HEARTBEAT);
        }
        return Evaluation.healthy(
                fp,
                at,
                SERVICE,
                "pipeline",
                "No record reached " + topic + " since " + java.time.Instant.ofEpochMilli(watch.lastAt()),
                incidentLink(fp),
                attrs,
                AlertSource.HEARTBEAT);
    }

    private Map<String, String> incidentLink(String fingerprint) {
        return Map.of(AlertLinks.INCIDENT, links.incident(fingerprint));
    }
}
