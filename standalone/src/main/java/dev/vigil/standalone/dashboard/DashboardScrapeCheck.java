package dev.vigil.standalone.dashboard;

import dev.vigil.standalone.dashboard.DashboardQueries.Query;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Does every metric a dashboard queries exist where the dashboard will look for it? The names come from the
 * dashboard's PromQL ({@link DashboardQueries}); what exists is the union of the series names of the sources read
 * ({@link SeriesNames}): every service's {@code /metrics}, or the Prometheus server that scrapes them.
 *
 * <p>A scrape of {@code /metrics} cannot contain the series Prometheus writes itself for each target
 * ({@link #PROMETHEUS_SERIES}: {@code up}, {@code scrape_*}); against scrapes those are counted as made by Prometheus,
 * against a Prometheus server they are checked like any other.
 *
 * <p>A metric may be missing on purpose only through the allow-list, each entry with its reason; an entry for a
 * metric the dashboard does not query is refused (it would hide nothing but could hide the next one), and one for a
 * metric that is present is reported, so the list does not outlive its reason unseen.
 */
public final class DashboardScrapeCheck {
    /** Series Prometheus adds to every target it scrapes (no service exposes them). */
    public static final Set<String> PROMETHEUS_SERIES = Set.of(
            "up",
            "scrape_duration_seconds",
            "scrape_samples_scraped",
            "scrape_samples_post_metric_relabeling",
            "scrape_series_added");

    /** Where the names come from. */
    public enum Mode {
        /** Each service's {@code /metrics}: Prometheus's own series cannot be there. */
        SCRAPE,
        /** A Prometheus server's label values: everything must be there. */
        PROMETHEUS
    }

    /**
     * A metric one query selects that no source has.
     *
     * @param absentFrom what was read, for the message: "none of the 7 scrapes", "the names Prometheus holds"
     */
    public record Missing(Query query, String metric, String absentFrom) {
        public String message() {
            return query.where() + ": " + metric + " is in " + absentFrom;
        }
    }

    /**
     * The outcome.
     *
     * @param missing          each (query, metric) no source has and the allow-list does not excuse; empty means pass
     * @param present          the queried metrics some source has
     * @param byPrometheus     the queried metrics Prometheus makes itself, not looked for in a direct scrape
     * @param allowedMissing   the queried metrics missing but allowed, with the reason given
     * @param allowedPresent   allow-list entries whose metric is present after all (the entry may go)
     */
    public record Result(
            List<Missing> missing,
            Set<String> present,
            Set<String> byPrometheus,
            Map<String, String> allowedMissing,
            Set<String> allowedPresent) {
        public boolean passed() {
            return missing.isEmpty();
        }
    }

    private DashboardScrapeCheck() {}

    /**
     * Checks {@code dashboard} against the union of {@code sources}.
     *
     * @param allowMissing metric name to the reason it may be missing; every name must be one the dashboard queries
     * @throws IllegalArgumentException an allow-list entry without a reason or for a metric the dashboard does not query
     */
    public static Result check(
            DashboardQueries dashboard, Collection<SeriesNames> sources, Mode mode, Map<String, String> allowMissing) {
        Set<String> queried = dashboard.metrics();
        for (Map.Entry<String, String> a : allowMissing.entrySet()) {
            if (!queried.contains(a.getKey())) {
                throw new IllegalArgumentException(
                        "the allow-list names " + a.getKey() + ", which the dashboard does not query");
            }
            if (a.getValue() == null || a.getValue().isBlank()) {
                throw new IllegalArgumentException("the allow-list entry for " + a.getKey() + " gives no reason");
            }
        }
        Set<String> available = new HashSet<>();
        sources.forEach(s -> available.addAll(s.names()));

        String absentFrom = mode == Mode.PROMETHEUS
                ? "none of the series names Prometheus holds"
                : sources.size() == 1 ? "the scrape" : "none of the " + sources.size() + " scrapes";
        List<Missing> missing = new ArrayList<>();
        Set<String> present = new TreeSet<>();
        Set<String> byPrometheus = new TreeSet<>();
        Map<String, String> allowedMissing = new LinkedHashMap<>();
        Set<String> allowedPresent = new TreeSet<>();
        for (Query q : dashboard.queries()) {
            for (String metric : q.metrics()) {
                if (available.contains(metric)) {
                    present.add(metric);
                    if (allowMissing.containsKey(metric)) {
                        allowedPresent.add(metric);
                    }
                } else if (mode == Mode.SCRAPE && PROMETHEUS_SERIES.contains(metric)) {
                    byPrometheus.add(metric);
                } else if (allowMissing.containsKey(metric)) {
                    allowedMissing.put(metric, allowMissing.get(metric));
                } else {
                    missing.add(new Missing(q, metric, absentFrom));
                }
            }
        }
        return new Result(List.copyOf(missing), present, byPrometheus, allowedMissing, allowedPresent);
    }

    /** The report a person reads: one line per finding, then a summary line. */
    public static List<String> report(DashboardQueries dashboard, Collection<SeriesNames> sources, Result result) {
        List<String> lines = new ArrayList<>();
        Set<String> queried = new LinkedHashSet<>(dashboard.metrics());
        for (Missing m : result.missing()) {
            lines.add("MISSING  " + m.message());
        }
        result.allowedMissing().forEach((metric, reason) -> lines.add("allowed  " + metric + " is missing: " + reason));
        for (String metric : result.allowedPresent()) {
            lines.add("note     " + metric + " is allowed to be missing but is present (the allow-list entry may go)");
        }
        if (!result.byPrometheus().isEmpty()) {
            lines.add("note     " + String.join(", ", result.byPrometheus())
                    + ": written by Prometheus for each target, not looked for in a /metrics scrape");
        }
        Set<String> missingNames = new TreeSet<>();
        result.missing().forEach(m -> missingNames.add(m.metric()));
        lines.add(String.format(
                "%s: %d queries, %d metrics: %d present, %d missing%s%s; %d sources read",
                result.passed() ? "PASS" : "FAIL",
                dashboard.queries().size(),
                queried.size(),
                result.present().size(),
                missingNames.size(),
                result.allowedMissing().isEmpty()
                        ? ""
                        : ", " + result.allowedMissing().size() + " allowed missing",
                result.byPrometheus().isEmpty()
                        ? ""
                        : ", " + result.byPrometheus().size() + " made by Prometheus",
                sources.size()));
        return lines;
    }
}
