package dev.vigil.schemas.contract;

/**
 * One probe of one monitor from one region for one window. Key of {@code vigil.probe-results} is the
 * monitor id. Times are UTC epoch milliseconds; durations are milliseconds.
 */
public record ProbeResult(
        Integer schemaVersion,
        String monitorId,
        String region,
        String workerId,
        Long windowStart,
        Long startedAt,
        Outcome outcome,
        ErrorKind errorKind,
        Integer httpStatus,
        Integer responseMs,
        Integer totalMs,
        Long bytesRead,
        Integer redirects,
        String finalUrl,
        Integer tlsDaysLeft,
        Integer dnsMs,
        Integer connectMs,
        Integer tlsMs,
        String detail,
        String requestId) {

    public ProbeResult {
        schemaVersion = Require.schemaVersion(schemaVersion);
        Require.slug("monitorId", monitorId);
        Require.slug("region", region);
        Require.text("workerId", workerId, 128);
        Require.atLeast("windowStart", Require.present("windowStart", windowStart), 0);
        Require.atLeast("startedAt", Require.present("startedAt", startedAt), 0);
        if (startedAt < windowStart) {
            throw new ContractViolation("startedAt", "must not be before windowStart");
        }
        Require.present("outcome", outcome);
        if (outcome == Outcome.SUCCESS && errorKind != null) {
            throw new ContractViolation("errorKind", "must be absent when outcome is success");
        }
        if (outcome == Outcome.NETWORK_FAILURE && errorKind == null) {
            throw new ContractViolation("errorKind", "is required when outcome is network_failure");
        }
        if (httpStatus != null) {
            Require.range("httpStatus", httpStatus, 100, 599);
        } else if (outcome == Outcome.SUCCESS || outcome == Outcome.HTTP_FAILURE) {
            throw new ContractViolation("httpStatus", "is required when outcome is " + outcome);
        }
        nonNegative("responseMs", responseMs);
        nonNegative("totalMs", totalMs);
        bytesRead = bytesRead == null ? 0L : Require.atLeast("bytesRead", bytesRead, 0);
        redirects = redirects == null ? 0 : Require.range("redirects", redirects, 0, 10);
        Require.optionalText("finalUrl", finalUrl, 2048);
        if (finalUrl != null && (finalUrl.indexOf('?') >= 0 || finalUrl.indexOf('#') >= 0)) {
            throw new ContractViolation("finalUrl", "must not carry a query string or fragment");
        }
        if (tlsDaysLeft != null) {
            Require.range("tlsDaysLeft", tlsDaysLeft, -36500, 36500);
        }
        nonNegative("dnsMs", dnsMs);
        nonNegative("connectMs", connectMs);
        nonNegative("tlsMs", tlsMs);
        Require.optionalText("detail", detail, 300);
        Require.text("requestId", requestId, 64);
    }

    private static void nonNegative(String field, Integer value) {
        if (value != null) {
            Require.range(field, value, 0, Integer.MAX_VALUE);
        }
    }

    public boolean succeeded() {
        return outcome == Outcome.SUCCESS;
    }
}
