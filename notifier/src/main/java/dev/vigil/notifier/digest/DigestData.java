package dev.vigil.notifier.digest;

import java.util.List;

/**
 * What the store holds for one digest window, before it is composed.
 *
 * @param incidents every incident open during the window or still open (resolved ones only if their resolution
 *                  was recorded after the window began)
 * @param failures  failed delivery attempts and dead letters per channel in the window
 * @param recorded  events the digest channels recorded in the window, grouped
 */
public record DigestData(List<IncidentRow> incidents, List<ChannelFailures> failures, List<RecordedGroup> recorded) {
    public DigestData {
        incidents = List.copyOf(incidents);
        failures = List.copyOf(failures);
        recorded = List.copyOf(recorded);
    }

    /** Failed attempts (transient or permanent) and deliveries given up (dead-lettered) on one channel. */
    public record ChannelFailures(String channel, long failedAttempts, long deadLettered) {}

    /** The events a digest channel recorded for one service and fingerprint: how many, and the latest summary. */
    public record RecordedGroup(String service, String fingerprint, String severity, long events, String lastSummary) {}
}
