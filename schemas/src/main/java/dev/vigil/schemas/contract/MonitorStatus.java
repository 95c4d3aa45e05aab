package dev.vigil.schemas.contract;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The verdict for one monitor and one window. Key of {@code vigil.monitor-status} (compacted) is the
 * monitor id, so the topic holds each monitor's latest verdict.
 *
 * <p>{@code skipped} names the missing regions whose worker said why it did not probe (a {@link SkipReason}); a
 * missing region absent from it sent nothing at all (worker dead or overloaded, region unserved, result late). Either
 * way a missing region is Vigil's gap, never evidence about the target.
 */
public record MonitorStatus(
        Integer schemaVersion,
        String monitorId,
        Long windowStart,
        Status status,
        Boolean complete,
        Map<String, RegionResult> regions,
        List<String> missingRegions,
        Long decidedAt,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                Map<String, SkipReason> skipped) {

    public MonitorStatus {
        schemaVersion = Require.schemaVersion(schemaVersion);
        Require.slug("monitorId", monitorId);
        Require.atLeast("windowStart", Require.present("windowStart", windowStart), 0);
        Require.present("status", status);
        Require.present("complete", complete);
        if (regions == null) {
            regions = Map.of();
        } else {
            var sorted = new TreeMap<String, RegionResult>();
            for (var e : regions.entrySet()) {
                Require.slug("regions", e.getKey());
                sorted.put(e.getKey(), Require.present("regions." + e.getKey(), e.getValue()));
            }
            regions = java.util.Collections.unmodifiableMap(sorted);
        }
        missingRegions = Require.list("missingRegions", missingRegions, 32);
        if (complete && !missingRegions.isEmpty()) {
            throw new ContractViolation("complete", "must be false when regions are missing");
        }
        if (status == Status.UNKNOWN && !regions.isEmpty()) {
            throw new ContractViolation("status", "must not be unknown when a region reported");
        }
        Require.atLeast("decidedAt", Require.present("decidedAt", decidedAt), 0);
        if (skipped == null || skipped.isEmpty()) {
            skipped = Map.of();
        } else {
            var sorted = new TreeMap<String, SkipReason>();
            for (var e : skipped.entrySet()) {
                if (!missingRegions.contains(e.getKey())) {
                    continue; // only a missing region can have been skipped: a stray entry says nothing
                }
                sorted.put(e.getKey(), Require.present("skipped." + e.getKey(), e.getValue()));
            }
            skipped = java.util.Collections.unmodifiableMap(sorted);
        }
    }

    /** A verdict in which no missing region said why it was skipped. */
    public MonitorStatus(
            Integer schemaVersion,
            String monitorId,
            Long windowStart,
            Status status,
            Boolean complete,
            Map<String, RegionResult> regions,
            List<String> missingRegions,
            Long decidedAt) {
        this(schemaVersion, monitorId, windowStart, status, complete, regions, missingRegions, decidedAt, null);
    }

    /** Regions that reported a failure of the target (every reported outcome but success). */
    public int targetFailures() {
        int failures = 0;
        for (RegionResult r : regions.values()) {
            if (r.outcome() != Outcome.SUCCESS) {
                failures++;
            }
        }
        return failures;
    }

    /**
     * One region's result within a verdict. The phase timings ({@code dnsMs}, {@code connectMs}, {@code tlsMs}) are
     * optional: present when the probe measured them, absent in verdicts written before they were carried.
     */
    public record RegionResult(
            Outcome outcome,
            ErrorKind errorKind,
            Integer httpStatus,
            Integer responseMs,
            Integer dnsMs,
            Integer connectMs,
            Integer tlsMs) {
        public RegionResult {
            Require.present("outcome", outcome);
            if (outcome == Outcome.SKIPPED) {
                throw new ContractViolation("outcome", "a skipped region is missing, not a region result");
            }
            if (httpStatus != null) {
                Require.range("httpStatus", httpStatus, 100, 599);
            }
            nonNegative("responseMs", responseMs);
            nonNegative("dnsMs", dnsMs);
            nonNegative("connectMs", connectMs);
            nonNegative("tlsMs", tlsMs);
        }

        private static void nonNegative(String field, Integer ms) {
            if (ms != null) {
                Require.range(field, ms, 0, Integer.MAX_VALUE);
            }
        }

        /** A result without phase timings. */
        public RegionResult(Outcome outcome, ErrorKind errorKind, Integer httpStatus, Integer responseMs) {
            this(outcome, errorKind, httpStatus, responseMs, null, null, null);
        }

        public static RegionResult of(ProbeResult r) {
            return new RegionResult(
                    r.outcome(), r.errorKind(), r.httpStatus(), r.responseMs(), r.dnsMs(), r.connectMs(), r.tlsMs());
        }
    }
}
