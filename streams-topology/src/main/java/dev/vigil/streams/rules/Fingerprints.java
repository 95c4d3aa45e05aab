package dev.vigil.streams.rules;

import dev.vigil.schemas.contract.Require;

/**
 * Fingerprints of the alerts the topology raises ({@code <rule-or-service>/<subject>}): one incident per
 * fingerprint at a time. The names are part of the alert contract (silences match them): choose once.
 */
public final class Fingerprints {
    private Fingerprints() {}

    /** Availability of a monitor: down, or degraded twice in a row. */
    public static String monitor(String monitorId) {
        return "monitor/" + monitorId;
    }

    /** No probe results for a monitor. */
    public static String noData(String monitorId) {
        return "monitor/" + monitorId + "/no-data";
    }

    /** TLS certificate of a monitor's target expiring. */
    public static String tls(String monitorId) {
        return "monitor/" + monitorId + "/tls";
    }

    /** A dead probe worker. */
    public static String worker(String region, String workerId) {
        return "worker/" + region + "/" + segment(workerId);
    }

    /** A probe region that monitors name and no live worker serves (Vigil's own gap). */
    public static String regionBlind(String region) {
        return "vigil/region-blind/" + region;
    }

    /** A probe worker skipping more of its probes than the threshold allows (Vigil's own gap). */
    public static String workerSkipping(String region, String workerId) {
        return "vigil/worker-skipping/" + region + "/" + segment(workerId);
    }

    /** Poison records reaching the dead-letter topic (Vigil's own fault): one incident for all of them. */
    public static String deadLetters() {
        return "vigil/dead-letters";
    }

    /** A metric rule for one application. */
    public static String metricRule(String ruleId, String appId) {
        return "rule/" + ruleId + "/" + appId;
    }

    /**
     * A free-form id made safe for one fingerprint segment ({@code [A-Za-z0-9._:-]}, at most 128 characters):
     * other characters become {@code _}.
     */
    public static String segment(String id) {
        StringBuilder sb = new StringBuilder(Math.min(id.length(), 128));
        for (int i = 0; i < id.length() && sb.length() < 128; i++) {
            char c = id.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '.'
                    || c == '_'
                    || c == ':'
                    || c == '-';
            sb.append(ok ? c : '_');
        }
        String s = sb.toString();
        Require.matches("fingerprint", "worker/x/" + s, Require.FINGERPRINT, "a valid fingerprint segment");
        return s;
    }
}
