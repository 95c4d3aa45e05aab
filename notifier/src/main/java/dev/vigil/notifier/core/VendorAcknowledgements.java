package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.Ack;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.AuditRecord;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.contract.VendorIncidentUpdate;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A person acknowledged (or resolved) one of Vigil's incidents in a vendor's tool: acknowledge it in Vigil, so an ack
 * in either place silences reminders in both (docs/design.md#incident-lifecycle). The vendor names only its own incident id; the
 * notifier kept that id when the vendor's channel opened the incident, so it finds Vigil's incident exactly (no
 * guessing by name or time).
 *
 * <p>What it writes, through {@link Publisher}: the {@link Ack} (to {@code vigil.acks}: the topology stops the
 * reminders of its own incidents, the {@link SilenceGate} those of application incidents), an {@code acknowledged}
 * notice (to {@code vigil.alerts}: the dispatcher sends it only where a page of the incident was delivered) and an
 * audit record. Resolving in the vendor's tool acknowledges and does not resolve: Vigil decides resolution from its
 * own checks, and says so in the notice.
 *
 * <p>Nothing is written when the vendor id names no incident of ours, when the incident is already resolved, or when
 * an acknowledgement already holds for it (which is also how the vendor's echo of an acknowledgement Vigil sent it is
 * recognised and dropped). The ids are derived from the vendor's time, so a redelivered webhook writes the same
 * records again and the dispatcher's dedupe folds the notice.
 */
public final class VendorAcknowledgements {
    /** The writes, which the adapter commits together (or retries together). */
    @FunctionalInterface
    public interface Publisher {
        Mono<Void> publish(Ack ack, AlertEvent notice, AuditRecord audit);
    }

    /** What became of an update. */
    public enum Outcome {
        ACKNOWLEDGED,
        UNKNOWN_INCIDENT,
        ALREADY_RESOLVED,
        ALREADY_ACKNOWLEDGED
    }

    private final DeliveryLog log;
    private final Map<String, List<String>> channelsByVendor;
    private final Function<String, Ack> acks;
    private final Publisher publisher;
    private final Clock clock;

    /**
     * @param channelsByVendor for each vendor ({@code betterstack}), the configured channels of that type whose
     *                         vendor ids are searched
     * @param acks             the acknowledgement now known for a fingerprint, or null
     */
    public VendorAcknowledgements(
            DeliveryLog log,
            Map<String, List<String>> channelsByVendor,
            Function<String, Ack> acks,
            Publisher publisher,
            Clock clock) {
        this.log = log;
        this.channelsByVendor = Map.copyOf(channelsByVendor);
        this.acks = acks;
        this.publisher = publisher;
        this.clock = clock;
    }

    public Mono<Outcome> apply(VendorIncidentUpdate u) {
        List<String> channels = channelsByVendor.getOrDefault(u.vendor(), List.of());
        return Flux.fromIterable(channels)
                .concatMap(
                        ch -> log.incidentByVendorRef(ch, u.vendorIncidentId()).flatMap(Mono::justOrEmpty))
                .next()
                .map(Optional::of)
                .defaultIfEmpty(Optional.empty())
                .flatMap(found -> found.isEmpty() ? Mono.just(Outcome.UNKNOWN_INCIDENT) : acknowledge(u, found.get()));
    }

    private Mono<Outcome> acknowledge(VendorIncidentUpdate u, IncidentRecord incident) {
        if (AlertState.RESOLVED.wire().equals(incident.state())) {
            return Mono.just(Outcome.ALREADY_RESOLVED);
        }
        Severity severity = Severity.parseLenient(incident.severity());
        Ack existing = acks.apply(incident.fingerprint());
        long now = clock.millis();
        if (existing != null && existing.holdsFor(incident.incidentId(), severity, now)) {
            return Mono.just(Outcome.ALREADY_ACKNOWLEDGED);
        }
        String vendorName = vendorName(u.vendor());
        String by = truncate(u.by() == null ? vendorName : u.by() + " via " + vendorName, 100);
        String comment = u.action() == VendorIncidentUpdate.Action.RESOLVED
                ? "resolved in " + vendorName + "; Vigil resolves the incident when its checks pass"
                : "acknowledged in " + vendorName;
        long at = Math.min(u.at(), now);
        Ack ack = new Ack(1, incident.fingerprint(), incident.incidentId(), by, at, null, comment, severity);
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("acknowledgedBy", by);
        attributes.put("acknowledgedIn", u.vendor());
        AlertEvent notice = new AlertEvent(
                1,
                incident.incidentId() + "/" + AlertState.ACKNOWLEDGED.wire() + "/" + at,
                incident.fingerprint(),
                incident.incidentId(),
                AlertState.ACKNOWLEDGED,
                severity,
                incident.service(),
                null,
                truncate("Acknowledged by " + by + ": " + comment, 300),
                Map.of(),
                attributes,
                Math.max(1, incident.occurrences()),
                incident.firstSeen(),
                Math.max(incident.firstSeen(), incident.lastSeen()),
                source(incident.source()),
                false,
                null);
        Map<String, String> details = new LinkedHashMap<>();
        details.put("incidentId", incident.incidentId());
        details.put("via", u.vendor());
        details.put("vendorIncidentId", u.vendorIncidentId());
        details.put("vendorAction", u.action().wire());
        details.put("acknowledgedBy", by);
        details.put("until", "end of incident");
        AuditRecord audit = new AuditRecord(
                1,
                UUID.nameUUIDFromBytes((u.key() + "/" + u.action().wire() + "/" + u.at())
                                .getBytes(java.nio.charset.StandardCharsets.UTF_8))
                        .toString(),
                now,
                u.vendor() + "-webhook",
                "alert.acknowledged",
                "alert/" + incident.fingerprint(),
                "",
                details);
        return publisher.publish(ack, notice, audit).thenReturn(Outcome.ACKNOWLEDGED);
    }

    private static AlertSource source(String wire) {
        if (wire == null) {
            return AlertSource.APP;
        }
        try {
            return AlertSource.fromWire(wire);
        } catch (RuntimeException e) {
            return AlertSource.APP;
        }
    }

    private static String vendorName(String vendor) {
        return "betterstack".equals(vendor) ? "BetterStack" : vendor;
    }

    private static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
