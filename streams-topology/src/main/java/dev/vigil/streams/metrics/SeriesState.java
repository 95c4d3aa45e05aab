package dev.vigil.streams.metrics;

import java.util.List;
import java.util.TreeSet;

/**
 * Progress of one metric series (appId, metricName) in the metric-window processor.
 *
 * @param closedUpTo end (exclusive) of the latest minute whose rules were evaluated; minutes before it are closed
 * @param maxTimestamp the largest metric timestamp seen (the series' event-time watermark before grace)
 * @param statusClasses every status class seen, sorted (so windows are fetched per class, by exact key)
 */
public record SeriesState(
        String appId, String metricName, long closedUpTo, long maxTimestamp, List<String> statusClasses) {
    public SeriesState {
        statusClasses = statusClasses == null ? List.of() : List.copyOf(statusClasses);
    }

    public String key() {
        return appId + "/" + metricName;
    }

    public SeriesState seen(String statusClass, long timestamp) {
        List<String> classes = statusClasses;
        if (!classes.contains(statusClass)) {
            TreeSet<String> s = new TreeSet<>(classes);
            s.add(statusClass);
            classes = List.copyOf(s);
        }
        return new SeriesState(appId, metricName, closedUpTo, Math.max(maxTimestamp, timestamp), classes);
    }

    public SeriesState withMaxTimestamp(long timestamp) {
        return new SeriesState(appId, metricName, closedUpTo, timestamp, statusClasses);
    }

    public SeriesState closedUpTo(long end) {
        return new SeriesState(appId, metricName, end, maxTimestamp, statusClasses);
    }
}
