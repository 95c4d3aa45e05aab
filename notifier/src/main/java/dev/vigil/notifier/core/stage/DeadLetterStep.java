package dev.vigil.notifier.core.stage;

import dev.vigil.notifier.core.DeadLetterStage;
import dev.vigil.notifier.core.FinalOutcome;
import dev.vigil.notifier.core.RetryPolicy;
import reactor.core.publisher.Mono;

/**
 * Ends a settled delivery. Given up: the event is dead-lettered, so the channels that can still deliver hear that
 * this one cannot. Delivered: the channel works, and a delivery-failing alert it has open ends. A retry passes on.
 */
public final class DeadLetterStep implements DeliveryStage {
    private final DeadLetterStage deadLetters;

    public DeadLetterStep(DeadLetterStage deadLetters) {
        this.deadLetters = deadLetters;
    }

    @Override
    public String name() {
        return "dead-letter";
    }

    @Override
    public Mono<Delivery> apply(Delivery d, Chain next) {
        if (d.decision() instanceof RetryPolicy.Done) {
            Mono<Void> resolve = d.channelFailing() ? deadLetters.delivered(d.channel()) : Mono.empty();
            return resolve.then(Mono.fromSupplier(() -> d.finished(FinalOutcome.DELIVERED, d.attempt(), null)));
        }
        if (d.decision() instanceof RetryPolicy.GiveUp g) {
            return deadLetters
                    .deadLetter(d.event(), d.channel(), g.reason(), d.attempt(), d.routed())
                    .then(Mono.fromSupplier(() -> d.finished(FinalOutcome.DEAD_LETTERED, d.attempt(), g.reason())));
        }
        return next.proceed(d);
    }
}
