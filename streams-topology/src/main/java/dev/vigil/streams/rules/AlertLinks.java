package dev.vigil.streams.rules;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The links a page carries, all into the console people sign in to (never a token-only JSON route, which would answer
 * a click from Slack with 401): {@code incident}, the incident's own view (its state, acknowledgement and actions),
 * and where it comes from — {@code monitor} (the monitor's view: results per region, response times, uptime),
 * {@code metric} (the metric's charts) or {@code workers}. A monitor's own links (its {@code runbook}, a dashboard, …)
 * follow, up to the contract's 8 links. The console asks for sign-in and then shows the linked view.
 *
 * <p>The console routes on the URL's fragment, so a link is {@code <publicUrl>/#/incident/<fingerprint>}, the
 * fingerprint percent-encoded as one path segment ({@code monitor%2Fcheckout}) so it comes back exactly; no link
 * carries a query string.
 */
public final class AlertLinks {
    public static final String INCIDENT = "incident";
    public static final String MONITOR = "monitor";
    public static final String METRIC = "metric";
    public static final String WORKERS = "workers";
    /** The links Vigil builds into its console; a definition's own links never take these names. */
    public static final java.util.Set<String> CONSOLE_LINKS = java.util.Set.of(INCIDENT, MONITOR, METRIC, WORKERS);

    private static final int MAX_LINKS = 8;

    private final String consoleUrl;

    /** @param consoleUrl the console's public base URL, e.g. {@code https://vigil.example.com}; a trailing slash is dropped */
    public AlertLinks(String consoleUrl) {
        if (consoleUrl == null
                || !(consoleUrl.startsWith("http://") || consoleUrl.startsWith("https://"))
                || consoleUrl.contains("?")
                || consoleUrl.contains("#")) {
            throw new IllegalArgumentException("the console URL must be an http(s) URL without query or fragment");
        }
        this.consoleUrl = consoleUrl.endsWith("/") ? consoleUrl.substring(0, consoleUrl.length() - 1) : consoleUrl;
    }

    /** The incident of {@code fingerprint}, the monitor's view, then the monitor's own links (a runbook among them). */
    public Map<String, String> monitor(String fingerprint, String monitorId, Map<String, String> definitionLinks) {
        Map<String, String> links = new LinkedHashMap<>();
        links.put(INCIDENT, incident(fingerprint));
        links.put(MONITOR, view("monitors", monitorId));
        if (definitionLinks != null) {
            definitionLinks.entrySet().stream()
                    .sorted(Map.Entry.comparingByKey())
                    .filter(e -> !CONSOLE_LINKS.contains(e.getKey()))
                    .limit(MAX_LINKS - links.size())
                    .forEach(e -> links.put(e.getKey(), e.getValue()));
        }
        return links;
    }

    public Map<String, String> metric(String fingerprint, String appId, String metricName) {
        return Map.of(INCIDENT, incident(fingerprint), METRIC, view("metrics", appId, metricName));
    }

    public Map<String, String> workers(String fingerprint) {
        return Map.of(INCIDENT, incident(fingerprint), WORKERS, view("workers"));
    }

    /** The console's view of the incident of {@code fingerprint}. */
    public String incident(String fingerprint) {
        return view("incident", fingerprint);
    }

    private String view(String route, String... segments) {
        StringBuilder b = new StringBuilder(consoleUrl).append("/#/").append(route);
        for (String s : segments) {
            b.append('/').append(URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20"));
        }
        return b.toString();
    }
}
