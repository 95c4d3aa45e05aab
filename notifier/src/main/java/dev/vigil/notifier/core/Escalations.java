package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.DeadLetter;
import reactor.core.publisher.Mono;

/** The port for undeliverable notifications: the dead-letter topic and the alert that says so. */
public interface Escalations {
    /** Completes when the envelope is durably written. */
    Mono<Void> deadLetter(String key, DeadLetter envelope);

    /** Completes when the alert is durably written to the alerts topic (it is delivered like any other). */
    Mono<Void> raise(AlertEvent alert);
}
