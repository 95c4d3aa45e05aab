package dev.vigil.schemas.contract;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import java.util.List;
import java.util.regex.Pattern;

/** A metric rule, keyed by id on the compacted {@code vigil.alert-rules} topic. */
public record AlertRule(
        Integer schemaVersion,
        String id,
        String appId,
        String metricName,
        List<String> filter,
        Aggregation aggregation,
        Integer windowMinutes,
        Comparison comparator,
        Double threshold,
        Integer minEvents,
        @JsonDeserialize(using = Severity.Strict.class) Severity severity,
        String summary,
        Boolean enabled) {

    public static final String ANY_APP = "*";
    private static final Pattern FILTER = Pattern.compile("[1-5]xx|[A-Za-z0-9_.-]{1,32}");

    public AlertRule {
        schemaVersion = Require.schemaVersion(schemaVersion);
        Require.slug("id", id);
        if (!ANY_APP.equals(appId)) {
            Require.slug("appId", appId);
        }
        Require.matches(
                "metricName", metricName, Require.METRIC_NAME, "1-64 characters [a-z0-9_] starting with a letter");
        filter = Require.list("filter", filter, 16);
        for (int i = 0; i < filter.size(); i++) {
            Require.matches("filter[" + i + "]", filter.get(i), FILTER, "a status value or a class such as 5xx");
        }
        Require.present("aggregation", aggregation);
        if (aggregation == Aggregation.RATIO && filter.isEmpty()) {
            throw new ContractViolation("filter", "is required for a ratio rule (the numerator's statuses)");
        }
        Require.range("windowMinutes", Require.present("windowMinutes", windowMinutes), 1, 60);
        Require.present("comparator", comparator);
        Require.finite("threshold", Require.present("threshold", threshold));
        minEvents = minEvents == null ? 1 : Require.range("minEvents", minEvents, 0, Integer.MAX_VALUE);
        Require.present("severity", severity);
        Require.text("summary", summary, 200);
        enabled = enabled == null ? Boolean.TRUE : enabled;
    }

    /** True when a metric with this app id is in scope of the rule. */
    public boolean appliesTo(String metricAppId) {
        return ANY_APP.equals(appId) || appId.equals(metricAppId);
    }
}
