package dev.vigil.standalone.cluster;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The scale benchmarks' fault step: one region's probe worker is taken away for some whole windows, then brought
 * back, and every page opened meanwhile is counted from {@code vigil.alerts}. Vigil's own gap must be exactly one
 * self-alert, resolved after the worker's return, and no page about a monitor it merely stopped watching.
 */
final class FaultStep {
    private FaultStep() {}

    /** A printf-style progress line. */
    interface Say {
        void say(String format, Object... args);
    }

    static ScaleFigures.Step run(
            ClusterScale.Recorder recorder,
            long intervalMs,
            int windows,
            int monitors,
            String region,
            Runnable stop,
            Runnable start,
            Say say) {
        Map<String, Double> f = new LinkedHashMap<>();
        Map<String, String> notes = new LinkedHashMap<>();
        // a window that began before the worker went away can still be paged about because of it
        long begin = System.currentTimeMillis() - intervalMs;
        say.say("fault: %s's probe worker away for %d windows", region, windows);
        stop.run();
        long stoppedAt = System.currentTimeMillis();
        LocalCluster.sleep(windows * intervalMs);
        ClusterScale.Recorder.Pages during = recorder.pages(begin, System.currentTimeMillis() + 1);
        start.run();
        long restartedAt = System.currentTimeMillis();
        say.say(
                "fault: %s's worker back after %.1f s; %d self-alert(s) opened meanwhile %s",
                region, (restartedAt - stoppedAt) / 1000.0, during.selfOpened(), during.selfFingerprints());
        long deadline = restartedAt + 4 * intervalMs;
        ClusterScale.Recorder.Pages after = recorder.pages(begin, System.currentTimeMillis() + 1);
        while (System.currentTimeMillis() < deadline
                && (after.selfOpened() == 0 || after.selfResolved() < after.selfOpened())) {
            LocalCluster.sleep(1000);
            after = recorder.pages(begin, System.currentTimeMillis() + 1);
        }
        // one window more: a monitor page that follows the worker's return would show here
        LocalCluster.sleep(intervalMs);
        after = recorder.pages(begin, System.currentTimeMillis() + 1);
        f.put("fault_windows", (double) windows);
        f.put("self_alerts_opened", (double) after.selfOpened());
        f.put("self_alerts_resolved", (double) after.selfResolved());
        f.put("alerts_opened", (double) after.availabilityOpened());
        f.put("nodata_opened", (double) after.noDataOpened());
        f.put(
                "self_alert_page_after_s",
                after.firstSelfOpenedAt() < 0
                        ? Double.NaN
                        : Math.round((after.firstSelfOpenedAt() - stoppedAt) / 100.0) / 10.0);
        f.put(
                "self_alert_resolved_after_return_s",
                after.lastSelfResolvedAt() < 0
                        ? Double.NaN
                        : Math.round((after.lastSelfResolvedAt() - restartedAt) / 100.0) / 10.0);
        notes.put("region", region);
        notes.put("self_alerts", after.selfFingerprints().isEmpty() ? "none" : after.selfFingerprints());
        say.say("fault: %s %s", f, notes);
        return new ScaleFigures.Step(monitors, f, notes);
    }
}
