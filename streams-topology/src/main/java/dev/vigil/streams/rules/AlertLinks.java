package dev.vigil.streams.rules;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The links an alert carries: {@code history} points into the query API — for a monitor, its detail page
 * (status, open alerts and the last 20 windows), because the range endpoint needs from/to and the privacy
 * invariant forbids query strings in alert fields — and a monitor's own links (dashboard, runbook, ...)
 * follow, up to the contract's 8 links.
 */
public final class AlertLinks {
    public static final String HISTORY = "history";
    private static final int MAX_LINKS = 8;

    private final String queryBaseUrl;

    /** @param queryBaseUrl the query API's public base URL, e.g. {@code http://vigil.internal:8084}; no trailing slash needed */
    public AlertLinks(String queryBaseUrl) {
        if (queryBaseUrl == null
                || !(queryBaseUrl.startsWith("http://") || queryBaseUrl.startsWith("https://"))
                || queryBaseUrl.contains("?")
                || queryBaseUrl.contains("#")) {
            throw new IllegalArgumentException("query base URL must be an http(s) URL without query or fragment");
        }
        this.queryBaseUrl =
                queryBaseUrl.endsWith("/") ? queryBaseUrl.substring(0, queryBaseUrl.length() - 1) : queryBaseUrl;
    }

    public Map<String, String> monitor(String monitorId, Map<String, String> definitionLinks) {
        Map<String, String> links = new LinkedHashMap<>();
        links.put(HISTORY, queryBaseUrl + "/v1/monitors/" + monitorId);
        if (definitionLinks != null) {
            definitionLinks.entrySet().stream()
                    .sorted(Map.Entry.comparingByKey())
                    .filter(e -> !e.getKey().equals(HISTORY))
                    .limit(MAX_LINKS - 1)
                    .forEach(e -> links.put(e.getKey(), e.getValue()));
        }
        return links;
    }

    public Map<String, String> metric(String appId, String metricName) {
        return Map.of(HISTORY, queryBaseUrl + "/v1/metrics/" + appId + "/" + metricName);
    }

    public Map<String, String> workers() {
        return Map.of(HISTORY, queryBaseUrl + "/v1/workers");
    }
}
