package dev.vigil.notifier.digest;

import dev.vigil.schemas.contract.AlertEvent;
import reactor.core.publisher.Mono;

/** Where a digest channel records the events routed to it, for the next digest; idempotent per (event, channel). */
public interface DigestInbox {
    Mono<Void> record(AlertEvent event, String channel);
}
