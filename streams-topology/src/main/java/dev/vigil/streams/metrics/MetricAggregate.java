package dev.vigil.streams.metrics;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.vigil.schemas.contract.DomainMetric;
import java.util.Objects;

/**
 * The one-minute window of one (appId, metricName, status class): count, sum of value, error count and a
 * {@link DurationHistogram} of durations. Also the result of combining several windows and classes
 * ({@link #combine}), which is exact for count, sum and errors and keeps the histogram's error bound.
 *
 * <p>Mutable (added to in place by the window aggregator, one instance per store entry); serialised by the
 * shared JSON mapper (field {@code durations} is the histogram's sparse snapshot) or, more compactly, by
 * {@link MetricAggregateSerde}.
 */
public final class MetricAggregate {
    public static final long MINUTE_MS = 60_000L;
    /** The status class of a combination of several classes. */
    public static final String ALL_CLASSES = "*";

    private final String appId;
    private final String metricName;
    private final String statusClass;
    private final long windowStart;
    private long count;
    private double sum;
    private long errorCount;
    private final DurationHistogram durations;

    public MetricAggregate(String appId, String metricName, String statusClass, long windowStart) {
        this(appId, metricName, statusClass, windowStart, 0, 0, 0, new DurationHistogram());
    }

    MetricAggregate(
            String appId,
            String metricName,
            String statusClass,
            long windowStart,
            long count,
            double sum,
            long errorCount,
            DurationHistogram durations) {
        this.appId = Objects.requireNonNull(appId, "appId");
        this.metricName = Objects.requireNonNull(metricName, "metricName");
        this.statusClass = Objects.requireNonNull(statusClass, "statusClass");
        if (windowStart < 0 || count < 0 || errorCount < 0 || errorCount > count || !Double.isFinite(sum)) {
            throw new IllegalArgumentException(
                    "metric window must have windowStart >= 0, 0 <= errorCount <= count, finite sum");
        }
        this.windowStart = windowStart;
        this.count = count;
        this.sum = sum;
        this.errorCount = errorCount;
        this.durations = Objects.requireNonNull(durations, "durations");
    }

    @JsonCreator
    static MetricAggregate fromJson(
            @JsonProperty("appId") String appId,
            @JsonProperty("metricName") String metricName,
            @JsonProperty("statusClass") String statusClass,
            @JsonProperty("windowStart") long windowStart,
            @JsonProperty("count") long count,
            @JsonProperty("sum") double sum,
            @JsonProperty("errorCount") long errorCount,
            @JsonProperty("durations") DurationHistogram.Snapshot durations) {
        return new MetricAggregate(
                appId,
                metricName,
                statusClass,
                windowStart,
                count,
                sum,
                errorCount,
                durations == null ? new DurationHistogram() : DurationHistogram.of(durations));
    }

    /** The start of the one-minute window holding {@code timestamp}. */
    public static long minuteOf(long timestamp) {
        return Math.floorDiv(timestamp, MINUTE_MS) * MINUTE_MS;
    }

    /** An empty window for the metric's key and minute. */
    public static MetricAggregate windowFor(DomainMetric m) {
        return new MetricAggregate(m.appId(), m.metricName(), m.statusClass(), minuteOf(m.timestamp()));
    }

    /** Adds one metric of this window's key and minute. */
    public MetricAggregate add(DomainMetric m) {
        if (!appId.equals(m.appId())
                || !metricName.equals(m.metricName())
                || !statusClass.equals(m.statusClass())
                || minuteOf(m.timestamp()) != windowStart) {
            throw new IllegalArgumentException(
                    "metric does not belong to window " + key().storeKey() + "@" + windowStart);
        }
        count++;
        sum += m.value();
        if (StatusClasses.isError(statusClass)) {
            errorCount++;
        }
        if (m.durationMs() != null) {
            durations.add(m.durationMs());
        }
        return this;
    }

    /**
     * Combines windows into one: counts, sums and errors added, histograms merged. The result has the given
     * status class ({@link #ALL_CLASSES} when classes are mixed) and window start; the inputs are not changed.
     */
    public static MetricAggregate combine(
            String appId, String metricName, String statusClass, long windowStart, Iterable<MetricAggregate> windows) {
        MetricAggregate out = new MetricAggregate(appId, metricName, statusClass, windowStart);
        for (MetricAggregate w : windows) {
            out.count += w.count;
            out.sum += w.sum;
            out.errorCount += w.errorCount;
            out.durations.merge(w.durations);
        }
        return out;
    }

    public MetricAggregate copy() {
        return new MetricAggregate(
                appId, metricName, statusClass, windowStart, count, sum, errorCount, durations.copy());
    }

    @JsonProperty("appId")
    public String appId() {
        return appId;
    }

    @JsonProperty("metricName")
    public String metricName() {
        return metricName;
    }

    @JsonProperty("statusClass")
    public String statusClass() {
        return statusClass;
    }

    @JsonProperty("windowStart")
    public long windowStart() {
        return windowStart;
    }

    @JsonProperty("count")
    public long count() {
        return count;
    }

    @JsonProperty("sum")
    public double sum() {
        return sum;
    }

    @JsonProperty("errorCount")
    public long errorCount() {
        return errorCount;
    }

    /** The distribution of durations (read-only by convention; use {@link #copy()} to change a combination). */
    public DurationHistogram histogram() {
        return durations;
    }

    @JsonProperty("durations")
    DurationHistogram.Snapshot durationsSnapshot() {
        return durations.snapshot();
    }

    public MetricKey key() {
        return new MetricKey(appId, metricName, statusClass.equals(ALL_CLASSES) ? "all" : statusClass);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MetricAggregate a
                && appId.equals(a.appId)
                && metricName.equals(a.metricName)
                && statusClass.equals(a.statusClass)
                && windowStart == a.windowStart
                && count == a.count
                && Double.compare(sum, a.sum) == 0
                && errorCount == a.errorCount
                && durations.equals(a.durations);
    }

    @Override
    public int hashCode() {
        return Objects.hash(appId, metricName, statusClass, windowStart, count, sum, errorCount);
    }

    @Override
    public String toString() {
        return "MetricAggregate[" + appId + "/" + metricName + "/" + statusClass + "@" + windowStart + ", count="
                + count + ", sum=" + sum + ", errors=" + errorCount + ", " + durations + "]";
    }
}
