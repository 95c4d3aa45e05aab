package dev.vigil.notifier.core;

import reactor.core.publisher.Mono;

/**
 * The outbound port: one instance per configured channel, built from configuration by the wiring.
 *
 * <p>Contract: the returned Mono emits exactly one {@link DeliveryOutcome} and does not error for anything the
 * vendor answered (the pipeline still maps an error or a timeout to a transient outcome). It may be called more
 * than once for the same event id (at-least-once towards the vendor is bounded by the claim store, not removed).
 */
public interface Notifier {
    Mono<DeliveryOutcome> send(Notification notification);

    /** True when the adapter needs the vendor id stored when the incident was opened (e.g. to resolve it). */
    default boolean usesVendorRef() {
        return false;
    }

    /**
     * True when the adapter renders a group message ({@link Notification#isGroup()}): only such channels group the
     * pages of a grouped route; the others (incident-keeping vendors, machines) keep one delivery per event.
     */
    default boolean rendersGroups() {
        return false;
    }
}
