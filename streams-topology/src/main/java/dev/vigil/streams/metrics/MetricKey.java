package dev.vigil.streams.metrics;

import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.contract.Require;

/**
 * What a one-minute metric window is kept per: (appId, metricName, status class). The store key is
 * {@link #storeKey()} ({@code appId/metricName/statusClass}); neither app ids (slugs) nor metric names
 * contain a slash, so it parses back unambiguously ({@link #parse}).
 */
public record MetricKey(String appId, String metricName, String statusClass) {
    public MetricKey {
        Require.slug("appId", appId);
        Require.matches(
                "metricName", metricName, Require.METRIC_NAME, "1-64 characters [a-z0-9_] starting with a letter");
        Require.text("statusClass", statusClass, 32);
    }

    public static MetricKey of(DomainMetric m) {
        return new MetricKey(m.appId(), m.metricName(), m.statusClass());
    }

    public String storeKey() {
        return appId + "/" + metricName + "/" + statusClass;
    }

    /** The prefix shared by every status class of one (appId, metricName), for a range scan of the store. */
    public static String seriesPrefix(String appId, String metricName) {
        return appId + "/" + metricName + "/";
    }

    public static MetricKey parse(String storeKey) {
        int a = storeKey.indexOf('/');
        int b = a < 0 ? -1 : storeKey.indexOf('/', a + 1);
        if (a < 0 || b < 0) {
            throw new IllegalArgumentException("metric key must be appId/metricName/statusClass");
        }
        return new MetricKey(storeKey.substring(0, a), storeKey.substring(a + 1, b), storeKey.substring(b + 1));
    }
}
