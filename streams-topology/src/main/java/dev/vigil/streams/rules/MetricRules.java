package dev.vigil.streams.rules;

import dev.vigil.schemas.contract.Aggregation;
import dev.vigil.schemas.contract.AlertRule;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.Comparison;
import dev.vigil.streams.metrics.DurationHistogram;
import dev.vigil.streams.metrics.MetricAggregate;
import dev.vigil.streams.metrics.StatusClasses;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Evaluates a metric rule ({@link AlertRule}) for one application when a minute closes, over the last N
 * one-minute windows (N = the rule's window; plus the trailing hour for {@code spike}). The caller fetches
 * exactly {@link #lookbackMinutes} minutes of windows: there is no unbounded scan.
 *
 * <p>Per aggregation, over windows of the rule's metric whose status class the filter selects (an empty
 * filter selects all):
 * <ul>
 *   <li>{@code count}: value = events = number of metrics;</li>
 *   <li>{@code sum}: value = sum of values; events = number of metrics;</li>
 *   <li>{@code ratio}: events = all metrics whatever the status; value = selected / events;</li>
 *   <li>{@code p95}, {@code p99}: value = the duration quantile (within
 *       {@link DurationHistogram#RELATIVE_ERROR} of the exact one); events = metrics with a duration. The
 *       breach is decided on {@link DurationHistogram#quantileBounds}: it fires only when the histogram proves
 *       the exact quantile is past the threshold (a threshold exactly met never fires; a quantile past it by
 *       more than one bucket, about 2 %, always does). This needs only {@code lower ≤ exact ≤ upper}, not which
 *       edge of a bucket is open, see {@link DurationHistogram#quantileBounds};</li>
 *   <li>{@code spike}: events = selected metrics in the window; value = events / (trailing 60-minute count
 *       per window-sized period); with an empty trailing hour, value is +∞ when events &gt; 0 (anything is a
 *       spike against nothing, minEvents still applies).</li>
 * </ul>
 * A breach needs {@code events ≥ minEvents} and {@code comparator(value, threshold)}; everything else,
 * including too few events, is a healthy evaluation (absence of traffic resolves a metric alert). A disabled
 * rule evaluates to nothing (its open alert is resolved by the caller, see
 * {@link dev.vigil.streams.alerting.AlertStateMachine#forceResolve}). The evaluation time is the end of the
 * closed minute, so a replay gives the same evaluations.
 */
public final class MetricRules {
    public static final int TRAILING_MINUTES = 60;
    static final String COMPONENT_TYPE = "metric";

    private final AlertLinks links;

    public MetricRules(AlertLinks links) {
        this.links = links;
    }

    /** The figures of one evaluation, and the evaluation for the state machine (empty when the rule is disabled). */
    public record Outcome(
            AlertRule rule,
            String appId,
            long windowEnd,
            double value,
            long events,
            boolean breach,
            Optional<Evaluation> evaluation) {}

    /** Minutes of windows, ending at the evaluated minute, the rule needs. */
    public static int lookbackMinutes(AlertRule rule) {
        return rule.windowMinutes() + (rule.aggregation() == Aggregation.SPIKE ? TRAILING_MINUTES : 0);
    }

    /**
     * @param windowEnd the end (exclusive) of the minute that just closed; must be minute-aligned
     * @param windows one-minute windows of the application (any metric, any class, any minute: those outside
     *                the rule's range are ignored)
     */
    public Outcome evaluate(AlertRule rule, String appId, long windowEnd, Iterable<MetricAggregate> windows) {
        if (windowEnd % MetricAggregate.MINUTE_MS != 0) {
            throw new IllegalArgumentException("windowEnd must be aligned to a minute");
        }
        if (!rule.appliesTo(appId)) {
            throw new IllegalArgumentException("rule " + rule.id() + " does not apply to app " + appId);
        }
        long windowMs = rule.windowMinutes() * MetricAggregate.MINUTE_MS;
        long from = windowEnd - windowMs;
        List<MetricAggregate> current = new ArrayList<>();
        List<MetricAggregate> currentAll = new ArrayList<>();
        List<MetricAggregate> trailing = new ArrayList<>();
        long trailingFrom = from - TRAILING_MINUTES * MetricAggregate.MINUTE_MS;
        for (MetricAggregate w : windows) {
            if (!w.appId().equals(appId) || !w.metricName().equals(rule.metricName())) {
                continue;
            }
            boolean selected = StatusClasses.selects(rule.filter(), w.statusClass());
            if (w.windowStart() >= from && w.windowStart() < windowEnd) {
                currentAll.add(w);
                if (selected) {
                    current.add(w);
                }
            } else if (selected && w.windowStart() >= trailingFrom && w.windowStart() < from) {
                trailing.add(w);
            }
        }
        MetricAggregate sel =
                MetricAggregate.combine(appId, rule.metricName(), MetricAggregate.ALL_CLASSES, from, current);
        double value;
        long events;
        double decisive = Double.NaN; // the figure compared with the threshold, when it is not the value itself
        switch (rule.aggregation()) {
            case COUNT -> {
                events = sel.count();
                value = events;
            }
            case SUM -> {
                events = sel.count();
                value = sel.sum();
            }
            case RATIO -> {
                events = currentAll.stream().mapToLong(MetricAggregate::count).sum();
                value = events == 0 ? 0 : (double) sel.count() / events;
            }
            case P95, P99 -> {
                DurationHistogram h = sel.histogram();
                events = h.count();
                double q = rule.aggregation() == Aggregation.P95 ? 0.95 : 0.99;
                value = events == 0 ? 0 : h.quantile(q);
                if (events > 0) {
                    // decide on the bound that proves the breach: the lower one for gt/gte, the upper for lt/lte;
                    // sound because lower <= exact <= upper whichever end of its bucket the exact quantile sits on
                    double[] bounds = h.quantileBounds(q);
                    boolean upward = rule.comparator() == Comparison.GT || rule.comparator() == Comparison.GTE;
                    decisive = upward ? bounds[0] : bounds[1];
                }
            }
            case SPIKE -> {
                events = sel.count();
                long trailingCount =
                        trailing.stream().mapToLong(MetricAggregate::count).sum();
                double average = (double) trailingCount * rule.windowMinutes() / TRAILING_MINUTES;
                value = average == 0 ? (events > 0 ? Double.POSITIVE_INFINITY : 0) : events / average;
            }
            default -> throw new IllegalStateException("unhandled aggregation " + rule.aggregation());
        }
        double compared = Double.isNaN(decisive) ? value : decisive;
        boolean breach = rule.enabled()
                && events >= rule.minEvents()
                && rule.comparator().breaches(compared, rule.threshold());
        if (!rule.enabled()) {
            return new Outcome(rule, appId, windowEnd, value, events, false, Optional.empty());
        }
        String fp = Fingerprints.metricRule(rule.id(), appId);
        String summary = render(rule, appId, value, events);
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("ruleId", rule.id());
        attrs.put("appId", appId);
        attrs.put("metricName", rule.metricName());
        attrs.put("aggregation", rule.aggregation().wire());
        attrs.put("value", format(value));
        attrs.put("threshold", format(rule.threshold()));
        attrs.put("events", Long.toString(events));
        attrs.put("windowMinutes", Integer.toString(rule.windowMinutes()));
        Map<String, String> metricLinks = links.metric(fp, appId, rule.metricName());
        Evaluation ev = breach
                ? Evaluation.breach(
                        fp,
                        windowEnd,
                        rule.severity(),
                        appId,
                        COMPONENT_TYPE,
                        summary,
                        metricLinks,
                        attrs,
                        AlertSource.METRIC)
                : Evaluation.healthy(
                        fp,
                        windowEnd,
                        appId,
                        COMPONENT_TYPE,
                        "Recovered: " + summary,
                        metricLinks,
                        attrs,
                        AlertSource.METRIC);
        return new Outcome(rule, appId, windowEnd, value, events, breach, Optional.of(ev));
    }

    /**
     * The rule's summary template with {@code {app}}, {@code {metric}}, {@code {rule}}, {@code {value}},
     * {@code {percent}} (value × 100 with a % sign), {@code {threshold}}, {@code {events}} and {@code {window}}
     * (minutes) replaced. Unknown placeholders are left as they are.
     */
    static String render(AlertRule rule, String appId, double value, long events) {
        return rule.summary()
                .replace("{app}", appId)
                .replace("{metric}", rule.metricName())
                .replace("{rule}", rule.id())
                .replace("{value}", format(value))
                .replace("{percent}", format(value * 100) + "%")
                .replace("{threshold}", format(rule.threshold()))
                .replace("{events}", Long.toString(events))
                .replace("{window}", Integer.toString(rule.windowMinutes()));
    }

    static String format(double v) {
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        String s = String.format(Locale.ROOT, "%.2f", v);
        return s.endsWith("0") ? s.substring(0, s.length() - 1) : s;
    }
}
