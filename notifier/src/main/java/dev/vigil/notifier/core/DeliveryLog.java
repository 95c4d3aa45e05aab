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

    /** Upserts the incident (first/last seen, occurrences, latest state). */
    Mono<Void> recordIncident(AlertEvent event);

    /** Records that a silenced event was not paged on these channels. */
    Mono<Void> recordSilenced(AlertEvent event, List<String> channels);

    Mono<Optional<String>> vendorRef(String incidentId, String channel);

    Mono<Void> saveVendorRef(String incidentId, String channel, String vendorRef);
}
