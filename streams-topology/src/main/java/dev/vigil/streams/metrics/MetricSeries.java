package dev.vigil.streams.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Turns one-minute windows of one (appId, metricName) — any status classes — into the points of
 * {@code GET /v1/metrics/{appId}/{metricName}?from=&to=&step=}: one point per step-aligned bucket in
 * {@code [from, to)} that has data, combining classes and minutes.
 */
public final class MetricSeries {
    /** The longest range one call may ask for (docs/api.md#query-api-streams: bounded time ranges, at most 31 days). */
    public static final long MAX_RANGE_MS = 31L * 24 * 3600 * 1000;

    private MetricSeries() {}

    /** One point of a metric series; quantiles are null when no duration was recorded. */
    public record Point(long windowStart, long count, long errorCount, double sum, Double p50, Double p95, Double p99) {
        static Point of(MetricAggregate a) {
            DurationHistogram h = a.histogram();
            return new Point(
                    a.windowStart(),
                    a.count(),
                    a.errorCount(),
                    a.sum(),
                    h.isEmpty() ? null : h.p50(),
                    h.isEmpty() ? null : h.p95(),
                    h.isEmpty() ? null : h.p99());
        }
    }

    /**
     * @param stepMs a positive multiple of one minute
     * @throws IllegalArgumentException when the range is empty, longer than {@link #MAX_RANGE_MS}, or the step
     *         is not a positive whole number of minutes
     */
    public static List<Point> points(
            String appId, String metricName, Iterable<MetricAggregate> windows, long from, long to, long stepMs) {
        if (to <= from) {
            throw new IllegalArgumentException("to must be after from");
        }
        if (to - from > MAX_RANGE_MS) {
            throw new IllegalArgumentException("range must be at most 31 days");
        }
        if (stepMs <= 0 || stepMs % MetricAggregate.MINUTE_MS != 0) {
            throw new IllegalArgumentException("step must be a positive whole number of minutes");
        }
        TreeMap<Long, List<MetricAggregate>> buckets = new TreeMap<>();
        for (MetricAggregate w : windows) {
            if (w.windowStart() >= from
                    && w.windowStart() < to
                    && w.appId().equals(appId)
                    && w.metricName().equals(metricName)) {
                long b = Math.floorDiv(w.windowStart(), stepMs) * stepMs;
                buckets.computeIfAbsent(b, k -> new ArrayList<>()).add(w);
            }
        }
        List<Point> out = new ArrayList<>(buckets.size());
        buckets.forEach((start, ws) ->
                out.add(Point.of(MetricAggregate.combine(appId, metricName, MetricAggregate.ALL_CLASSES, start, ws))));
        return out;
    }
}
