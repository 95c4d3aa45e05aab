package dev.vigil.schemas.contract;

/**
 * One probe of one monitor from one region for one window. Key of {@code vigil.probe-results} is the
 * monitor id. Times are UTC epoch milliseconds; durations are milliseconds.
 *
 * <p>{@code checkType} says which kind of check produced it (absent: http, as every result written before check
 * types existed). Only http results carry {@code httpStatus}; a heartbeat ping's result has region
 * {@link MonitorDefinition#PUSH_REGION}. {@code dnsAnswers} are the values a DNS check received (at most 16).
 *
 * <p>A skipped result ({@code outcome} {@link Outcome#SKIPPED}) says the worker did not probe the window, and
 * {@code skipReason} says why; it carries no error kind, status or timings of a target it never reached.
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
        String requestId,
        CheckType checkType,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                java.util.List<String> dnsAnswers,
        SkipReason skipReason) {

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
        if (outcome == Outcome.SKIPPED) {
            Require.present("skipReason", skipReason);
            if (errorKind != null || httpStatus != null) {
                throw new ContractViolation("outcome", "a skipped result carries no errorKind or httpStatus");
            }
        } else if (skipReason != null) {
            throw new ContractViolation("skipReason", "must be absent unless outcome is skipped");
        }
        if (outcome == Outcome.SUCCESS && errorKind != null) {
            throw new ContractViolation("errorKind", "must be absent when outcome is success");
        }
        if (outcome == Outcome.NETWORK_FAILURE && errorKind == null) {
            throw new ContractViolation("errorKind", "is required when outcome is network_failure");
        }
        boolean http = checkType == null || checkType == CheckType.HTTP;
        if (httpStatus != null) {
            Require.range("httpStatus", httpStatus, 100, 599);
        } else if (http && (outcome == Outcome.SUCCESS || outcome == Outcome.HTTP_FAILURE)) {
            throw new ContractViolation("httpStatus", "is required when outcome is " + outcome);
        }
        if (!http && outcome == Outcome.HTTP_FAILURE) {
            throw new ContractViolation(
                    "outcome",
                    "http_failure is for http checks; a " + checkType.wire()
                            + " check fails with network_failure or assertion_failure");
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
        dnsAnswers = Require.list("dnsAnswers", dnsAnswers, 16);
        for (int i = 0; i < dnsAnswers.size(); i++) {
            Require.text("dnsAnswers[" + i + "]", dnsAnswers.get(i), 255);
        }
    }

    /** A probe's result (anything but a skip). */
    public ProbeResult(
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
            String requestId,
            CheckType checkType,
            java.util.List<String> dnsAnswers) {
        this(
                schemaVersion,
                monitorId,
                region,
                workerId,
                windowStart,
                startedAt,
                outcome,
                errorKind,
                httpStatus,
                responseMs,
                totalMs,
                bytesRead,
                redirects,
                finalUrl,
                tlsDaysLeft,
                dnsMs,
                connectMs,
                tlsMs,
                detail,
                requestId,
                checkType,
                dnsAnswers,
                null);
    }

    /**
     * The result a worker publishes instead of silence when it could not probe {@code monitorId}'s window for a
     * reason of its own.
     */
    public static ProbeResult skipped(
            String monitorId,
            String region,
            String workerId,
            long windowStart,
            long at,
            CheckType checkType,
            SkipReason reason,
            String requestId) {
        return new ProbeResult(
                1,
                monitorId,
                region,
                workerId,
                windowStart,
                Math.max(windowStart, at),
                Outcome.SKIPPED,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                "not probed: " + reason.wire(),
                requestId,
                checkType,
                null,
                reason);
    }

    /** An http result, as before check types existed. */
    public ProbeResult(
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
        this(
                schemaVersion,
                monitorId,
                region,
                workerId,
                windowStart,
                startedAt,
                outcome,
                errorKind,
                httpStatus,
                responseMs,
                totalMs,
                bytesRead,
                redirects,
                finalUrl,
                tlsDaysLeft,
                dnsMs,
                connectMs,
                tlsMs,
                detail,
                requestId,
                null,
                null,
                null);
    }

    private static void nonNegative(String field, Integer value) {
        if (value != null) {
            Require.range(field, value, 0, Integer.MAX_VALUE);
        }
    }

    public boolean succeeded() {
        return outcome == Outcome.SUCCESS;
    }

    /** True when the worker did not probe the target ({@link Outcome#SKIPPED}). */
    public boolean skipped() {
        return outcome == Outcome.SKIPPED;
    }
}
