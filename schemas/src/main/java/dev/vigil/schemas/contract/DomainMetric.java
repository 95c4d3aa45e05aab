package dev.vigil.schemas.contract;

import java.util.Map;

/**
 * One application event (an HTTP request served, a message dead-lettered, ...). Key of
 * {@code vigil.metrics} is {@code appId + "/" + metricName}. Carries no personal data: the privacy
 * guard checks every string field before anything is produced.
 */
public record DomainMetric(
        Integer schemaVersion,
        String appId,
        String metricName,
        String status,
        String pathname,
        Double value,
        Double durationMs,
        Map<String, String> labels,
        Long timestamp) {

    public static final String HTTP_REQUEST = "http_request";
    public static final String DLQ_ROUTED = "dlq_routed";
    public static final String INQUIRY_SUBMITTED = "inquiry_submitted";
    public static final String CRITIQUE_FEEDBACK = "critique_feedback";

    public DomainMetric {
        schemaVersion = Require.schemaVersion(schemaVersion);
        Require.slug("appId", appId);
        Require.matches(
                "metricName", metricName, Require.METRIC_NAME, "1-64 characters [a-z0-9_] starting with a letter");
        Require.optionalText("status", status, 32);
        Require.optionalText("pathname", pathname, 512);
        if (pathname != null
                && (!pathname.startsWith("/") || pathname.indexOf('?') >= 0 || pathname.indexOf('#') >= 0)) {
            throw new ContractViolation("pathname", "must be a path starting with / without query string or fragment");
        }
        value = value == null ? 1.0 : Require.finite("value", value);
        if (durationMs != null && (Require.finite("durationMs", durationMs) < 0)) {
            throw new ContractViolation("durationMs", "must not be negative");
        }
        labels = Require.stringMap("labels", labels, 8, 64, 128);
        Require.atLeast("timestamp", Require.present("timestamp", timestamp), 0);
    }

    /** The record key on {@code vigil.metrics}. */
    public String key() {
        return appId + "/" + metricName;
    }

    /** {@code 5xx}, {@code 4xx}, ... for numeric HTTP statuses; the status itself otherwise; {@code none} if absent. */
    public String statusClass() {
        if (status == null) {
            return "none";
        }
        if (status.length() == 3
                && status.charAt(0) >= '1'
                && status.charAt(0) <= '5'
                && Character.isDigit(status.charAt(1))
                && Character.isDigit(status.charAt(2))) {
            return status.charAt(0) + "xx";
        }
        return status;
    }
}
