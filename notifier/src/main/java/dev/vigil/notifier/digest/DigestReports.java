package dev.vigil.notifier.digest;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The digests this instance composed and is delivering, by the id of the event that carries them through the
 * channel pipelines: a digest is longer than any alert event may be, so the event names it and the channel's digest
 * sender looks it up here. Only the instance that claimed the day delivers it, so the report is always local.
 */
public final class DigestReports {
    private final ConcurrentMap<String, DigestReport> byEvent = new ConcurrentHashMap<>();

    public static String eventId(java.time.LocalDate day) {
        return "digest/" + day;
    }

    void put(String eventId, DigestReport report) {
        byEvent.put(eventId, report);
    }

    void remove(String eventId) {
        byEvent.remove(eventId);
    }

    public Optional<DigestReport> get(String eventId) {
        return Optional.ofNullable(byEvent.get(eventId));
    }
}
