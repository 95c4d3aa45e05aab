package dev.vigil.notifier.core.stage;

import dev.vigil.notifier.core.RetryPolicy;
import java.time.Clock;
import reactor.core.publisher.Mono;

/**
 * Decides what the send means before the claim is settled, because the settlement follows from it (delivered, dead,
 * or released for a retry). Once the stages after it have settled a retryable failure, it ends the run with the
 * policy's backoff, and the pipeline runs its list again as the next attempt.
 */
public final class RetryStep implements DeliveryStage {
    private final RetryPolicy policy;
    private final Clock clock;

    public RetryStep(RetryPolicy policy, Clock clock) {
        this.policy = policy;
        this.clock = clock;
    }

    @Override
    public String name() {
        return "retry";
    }

    @Override
    public Mono<Delivery> apply(Delivery d, Chain next) {
        RetryPolicy.Decision decision =
                policy.decide(d.sent().outcome(), d.attempt(), d.firstAttempt(), clock.instant());
        Mono<Delivery> rest = next.proceed(d.withDecision(decision));
        if (decision instanceof RetryPolicy.RetryIn in) {
            return rest.map(r -> r.stopped() ? r : r.againAfter(in.delay(), d.attempt() + 1));
        }
        return rest;
    }
}
