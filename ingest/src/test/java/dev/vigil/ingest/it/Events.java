package dev.vigil.ingest.it;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** JSON bodies for tests. */
final class Events {
    private Events() {}

    static String metric(String app, String name, String status, String path, long ts) {
        String appField = app == null ? "" : "\"appId\":\"" + app + "\",";
        return "{\"schemaVersion\":1," + appField + "\"metricName\":\"" + name + "\",\"status\":\"" + status
                + "\",\"pathname\":\"" + path + "\",\"durationMs\":12.5,\"labels\":{\"method\":\"GET\"},\"timestamp\":"
                + ts + "}";
    }

    static String metric(String status, long ts) {
        return metric("checkout", "http_request", status, "/menu", ts);
    }

    static String array(List<String> items) {
        return "[" + String.join(",", items) + "]";
    }

    static String metrics(int n, long ts, String marker) {
        List<String> items = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            items.add(metric("checkout", "http_request", "200", "/" + marker + "/" + i, ts));
        }
        return array(items);
    }

    static String probeResult(String monitor, String region, long windowStart, String requestId) {
        return "{\"schemaVersion\":1,\"monitorId\":\"" + monitor + "\",\"region\":\"" + region
                + "\",\"workerId\":\"w-1\",\"windowStart\":" + windowStart + ",\"startedAt\":" + (windowStart + 100)
                + ",\"outcome\":\"success\",\"httpStatus\":200,\"responseMs\":42,\"totalMs\":50,\"requestId\":\""
                + requestId + "\"}";
    }

    static String heartbeat(String workerId, String region, long sentAt) {
        return "{\"schemaVersion\":1,\"workerId\":\"" + workerId + "\",\"region\":\"" + region + "\",\"sentAt\":"
                + sentAt + ",\"inFlight\":2,\"monitorsAssigned\":7,\"version\":\"0.1.0\"}";
    }

    static String alertEvent(String fingerprint, String state, long ts) {
        return "{\"schemaVersion\":1,\"fingerprint\":\"" + fingerprint + "\",\"state\":\"" + state
                + "\",\"severity\":\"P1\",\"service\":\"checkout\",\"summary\":\"Checkout failing\",\"firstSeen\":"
                + ts + ",\"lastSeen\":" + ts + "}";
    }

    static String alertmanager(String status, String fingerprint, String severity) {
        String fp = fingerprint == null ? "" : "\"fingerprint\":\"" + fingerprint + "\",";
        return "{\"version\":\"4\",\"groupKey\":\"{}:{alertname=\\\"HighLatency\\\"}\",\"status\":\"" + status
                + "\",\"receiver\":\"vigil\",\"externalURL\":\"http://alertmanager:9093\",\"alerts\":[{\"status\":\""
                + status + "\",\"labels\":{\"alertname\":\"HighLatency\",\"severity\":\"" + severity
                + "\",\"job\":\"api\",\"instance\":\"api-1:9100\"},\"annotations\":{\"summary\":\"p99 latency above 2s\"},"
                + "\"startsAt\":\"2026-01-01T10:00:00Z\",\"endsAt\":\""
                + ("resolved".equals(status) ? "2026-01-01T10:30:00Z" : "0001-01-01T00:00:00Z")
                + "\",\"generatorURL\":\"http://prometheus:9090/graph?g0.expr=up\"," + fp + "\"x\":1}]}";
    }

    static String id() {
        return UUID.randomUUID().toString();
    }

    /**
     * BetterStack's incident webhook body, shaped like its documentation's example (the JSON:API incident resource);
     * {@code acknowledgedBy}/{@code resolvedBy} null, or a name to put in quotes.
     */
    static String betterStackIncident(
            String id,
            String status,
            String acknowledgedAt,
            String acknowledgedBy,
            String resolvedAt,
            String resolvedBy) {
        return "{\"data\":{\"id\":\"" + id + "\",\"type\":\"incident\",\"attributes\":{\"name\":\"checkout-api\","
                + "\"url\":null,\"http_method\":\"get\",\"cause\":\"Status 500\",\"incident_group_id\":null,"
                + "\"started_at\":\"2020-03-09T17:37:56.662Z\",\"acknowledged_at\":" + quoted(acknowledgedAt)
                + ",\"acknowledged_by\":" + quoted(acknowledgedBy) + ",\"resolved_at\":" + quoted(resolvedAt)
                + ",\"resolved_by\":" + quoted(resolvedBy) + ",\"status\":\"" + status
                + "\",\"team_name\":\"Testing team\","
                + "\"response_content\":null,\"response_options\":null,\"regions\":[\"us\",\"eu\"],"
                + "\"response_url\":null,\"screenshot_url\":null,\"escalation_policy_id\":null,\"call\":true,"
                + "\"sms\":true,\"email\":true,\"push\":true},\"relationships\":{\"monitor\":{\"data\":{\"id\":\"2\","
                + "\"type\":\"monitor\"}}}}}";
    }

    private static String quoted(String s) {
        return s == null ? "null" : "\"" + s + "\"";
    }
}
