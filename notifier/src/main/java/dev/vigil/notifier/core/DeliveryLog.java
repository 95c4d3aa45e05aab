package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertEvent;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import reactor.core.publisher.Mono;

/**
 * The port to durable delivery state (claims, incidents, attempts). Every operation errors when the store is
 * unreachable; the pipeline retries, so an outage pauses delivery rather than losing or duplicating it.
 */
public interface DeliveryLog {
    /** Claims (eventId, channel) for the dedupe window in one atomic step, safe across instances. */
    Mono<Claim> claim(String eventId, String channel);

    /**
     * Ends a claim and records the attempt that ended it. Emits, for a {@link Settlement#DELIVERED} settlement,
     * whether the claim's channel has a delivery-failing alert open whose {@code opened} was dispatched (what
     * {@link #dispatchedFailing} would find, asked in the same step, so a success needs no look-up of its own when
     * none is open); false for any other settlement.
     */
    Mono<Boolean> settle(Claim claim, Attempt attempt, Settlement settlement);

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

    /**
     * The incident whose {@code channel} vendor id is {@code vendorRef} (the newest, should a vendor reuse ids): how a
     * vendor's webhook, which names only its own id, finds Vigil's incident.
     */
    Mono<Optional<IncidentRecord>> incidentByVendorRef(String channel, String vendorRef);

    /**
     * The newest incident of {@code fingerprint} while it is open (its latest event is not a resolution), as this
     * notifier recorded it: how an application's page linked to a monitor finds that monitor's open incident.
     */
    Mono<Optional<IncidentRecord>> openIncident(String fingerprint);

    /** Keeps the vendor's id on the incident row of that incident id and fingerprint (no other row). */
    Mono<Void> saveVendorRef(String incidentId, String fingerprint, String channel, String vendorRef);

    /**
     * The channels where a page of this incident ({@code opened}, {@code reminder} or {@code escalated}) was
     * delivered: a resolution is owed to each of them, silenced or not. Keyed by the incident and its fingerprint
     * together, like {@link #vendorRef}: an event naming another fingerprint's incident id finds nothing.
     */
    Mono<Set<String>> pagedChannels(String incidentId, String fingerprint);

    /**
     * Keeps {@code candidate} as its channel's open delivery-failing alert unless the channel has one open already,
     * atomically across instances; completes with the one that is open (the existing one, or the candidate).
     */
    Mono<FailingChannel> openFailing(FailingChannel candidate);

    /**
     * The channel's open delivery-failing alert, once its {@code opened} has been dispatched (its incident is
     * recorded): only then is a {@code resolved} written after it on the alerts topic, so it cannot overtake it.
     */
    Mono<Optional<FailingChannel>> dispatchedFailing(String channel);

    /** Closes the channel's delivery-failing alert of this incident (a newer one, opened since, stays open). */
    Mono<Void> closeFailing(String channel, String incidentId);

    /**
     * The first-seen time (epoch ms) of {@code fingerprint}'s open incident ({@link #openIncident}), if any: how a
     * restarted notifier finds its own self-alert still open.
     */
    default Mono<java.util.OptionalLong> openIncidentFirstSeen(String fingerprint) {
        return openIncident(fingerprint).map(open -> open.map(i -> java.util.OptionalLong.of(i.firstSeen()))
                .orElse(java.util.OptionalLong.empty()));
    }
}
