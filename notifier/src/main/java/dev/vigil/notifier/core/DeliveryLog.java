package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertEvent;
import java.util.List;
import java.util.Optional;
import reactor.core.publisher.Mono;

/**
 * The port to durable delivery state (claims, incidents, attempts). Every operation errors when the store is
 * unreachable; the pipeline retries, so an outage pauses delivery rather than losing or duplicating it.
 */
public interface DeliveryLog {
    /** Claims (eventId, channel) for the dedupe window in one atomic step, safe across instances. */
    Mono<Claim> claim(String eventId, String channel);

    /** Ends a claim and records the attempt that ended it. */
    Mono<Void> settle(Claim claim, Attempt attempt, Settlement settlement);

    /**
     * Upserts the incident (first/last seen, occurrences, latest state). An existing row of the same incident id
     * but another fingerprint is left as it is.
     */
    Mono<Void> recordIncident(AlertEvent event);

    /** Records that a silenced event was not paged on these channels. */
    Mono<Void> recordSilenced(AlertEvent event, List<String> channels);

    /**
     * The id {@code channel}'s vendor gave the incident when it was opened. Keyed by the incident and its
     * fingerprint together: an event that names another fingerprint's incident id (an app claiming
     * {@code monitor/x@…} from {@code app/demo/monitor/x}) finds nothing, so it cannot resolve that incident.
     */
    Mono<Optional<String>> vendorRef(String incidentId, String fingerprint, String channel);

    /** Keeps the vendor's id on the incident row of that incident id and fingerprint (no other row). */
    Mono<Void> saveVendorRef(String incidentId, String fingerprint, String channel, String vendorRef);
}
