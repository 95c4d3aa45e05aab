package dev.vigil.notifier.core;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Stage 2: one send with the per-send timeout. Errors and timeouts become transient outcomes. The pipeline runs
 * it inside the channel's lane.
 */
public final class SendStage {
    private final Notifier notifier;
    private final Duration timeout;
    private final Scheduler timer;

    public SendStage(Notifier notifier, Duration timeout, Scheduler timer) {
        this.notifier = notifier;
        this.timeout = timeout;
        this.timer = timer;
    }

    /** The outcome and how long the vendor took. */
    public record Sent(DeliveryOutcome outcome, long latencyMs) {
    }

    public Mono<Sent> send(Notification n) {
        return Mono.defer(() -> {
            long start = timer.now(TimeUnit.MILLISECONDS);
            return Mono.defer(() -> notifier.send(n))
                    .timeout(timeout, timer)
                    .onErrorResume(e -> Mono.just(new DeliveryOutcome.Transient(describe(e), null, null)))
                    .switchIfEmpty(Mono.fromSupplier(() -> new DeliveryOutcome.Transient("adapter returned nothing", null, null)))
                    .map(o -> new Sent(o, timer.now(TimeUnit.MILLISECONDS) - start));
        });
    }

    public boolean usesVendorRef() {
        return notifier.usesVendorRef();
    }

    private String describe(Throwable e) {
        if (e instanceof TimeoutException) {
            return "no answer within the send timeout of " + timeout;
        }
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }
}
