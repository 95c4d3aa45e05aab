package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.EscalationStatus;
import reactor.core.publisher.Mono;

/** The port where an incident's escalation climb is shown to people (the console, through the query API). */
@FunctionalInterface
public interface TierBoard {
    /** Completes when the status is written; the timers never depend on it. */
    Mono<Void> show(EscalationStatus status);
}
