package dev.vigil.notifier.core;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Stage 2: one send with the per-send timeout. Errors and timeouts become transient outcomes (any URL in an error's
 * message cut to its host). The pipeline runs it inside the channel's lane.
 */
public final class SendStage {
    private static final Pattern URL =
            Pattern.compile("\\b([A-Za-z][A-Za-z0-9+.-]{1,15}://)(?:[^@/\\s?#]*@)?([^/\\s?#@]+)[^\\s]*");
    private final Notifier notifier;
    private final Duration timeout;
    private final Scheduler timer;

    public SendStage(Notifier notifier, Duration timeout, Scheduler timer) {
        this.notifier = notifier;
        this.timeout = timeout;
        this.timer = timer;
    }

    /** The outcome and how long the vendor took. */
    public record Sent(DeliveryOutcome outcome, long latencyMs) {}

    public Mono<Sent> send(Notification n) {
        return Mono.defer(() -> {
            long start = timer.now(TimeUnit.MILLISECONDS);
            return Mono.defer(() -> notifier.send(n))
                    .timeout(timeout, timer)
                    .onErrorResume(e -> Mono.just(new DeliveryOutcome.Transient(describe(e), null, null)))
                    .switchIfEmpty(Mono.fromSupplier(
                            () -> new DeliveryOutcome.Transient("adapter returned nothing", null, null)))
                    .map(o -> new Sent(o, timer.now(TimeUnit.MILLISECONDS) - start));
        });
    }

    public boolean usesVendorRef() {
        return notifier.usesVendorRef();
    }

    public boolean rendersGroups() {
        return notifier.rendersGroups();
    }

    private String describe(Throwable e) {
        if (e instanceof TimeoutException) {
            return "no answer within the send timeout of " + timeout;
        }
        // the reason is logged and dead-lettered: a URL in it keeps only its host
        String m = withoutUrlSecrets(e.getMessage());
        return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }

    /**
     * {@code s} with every URL cut to its scheme and host: webhook URLs carry their token in the path or query (and
     * some a password as user-info).
     */
    static String withoutUrlSecrets(String s) {
        return s == null ? null : URL.matcher(s).replaceAll("$1$2/\u2026");
    }
}
