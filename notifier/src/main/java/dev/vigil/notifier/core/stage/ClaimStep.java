package dev.vigil.notifier.core.stage;

import dev.vigil.notifier.core.ClaimStage;
import dev.vigil.notifier.core.FinalOutcome;
import java.time.Duration;
import reactor.core.publisher.Mono;

/**
 * Takes the durable claim on (event, channel) before anything is sent, so a page goes out once however many
 * senders see it. Already delivered: the delivery ends deduplicated. Held by another sender: this run ends and the
 * list runs again after {@code busyRetry}, since that sender may fail and release it.
 */
public final class ClaimStep implements DeliveryStage {
    private final ClaimStage claims;
    private final Duration busyRetry;

    public ClaimStep(ClaimStage claims, Duration busyRetry) {
        this.claims = claims;
        this.busyRetry = busyRetry;
    }

    @Override
    public String name() {
        return "claim";
    }

    @Override
    public Mono<Delivery> apply(Delivery d, Chain next) {
        return claims.claim(d.event().eventId(), d.channel()).flatMap(c -> switch (c.status()) {
            case DUPLICATE -> Mono.just(
                    d.finished(FinalOutcome.DEDUPLICATED, d.attempt() - 1, Delivery.ALREADY_DELIVERED));
            case BUSY -> Mono.just(d.againAfter(busyRetry, d.attempt()));
            case CLAIMED -> next.proceed(d.withClaim(c));
        });
    }
}
