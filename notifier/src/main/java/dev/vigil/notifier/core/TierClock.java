package dev.vigil.notifier.core;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * The escalation timers' clock: every {@code every}, claims the tiers now due whose fingerprints this instance
 * consumes and has the dispatcher page them. The timers themselves are rows of the {@link TierLog}, so a restart, a
 * kill -9 or a rebalance moves them with the partitions instead of losing them; a tick that finds the store away
 * logs and tries again at the next one.
 */
public final class TierClock implements AutoCloseable {
    /** How often due tiers are looked for: a tier pages at most this late. */
    public static final Duration EVERY = Duration.ofSeconds(1);
    /** Tiers claimed per look; the rest wait for the next tick. */
    static final int BATCH = 64;
    /** Tiers of different incidents paged at once. */
    static final int CONCURRENCY = 8;

    private static final Logger LOG = LoggerFactory.getLogger(TierClock.class);
    private final TierLog tiers;
    private final Dispatcher dispatcher;
    private final Predicate<String> owned;
    private final Clock clock;
    private final Scheduler timer;
    private final Duration every;
    private final Duration lease;
    private Disposable ticking;
    /** Tiers this instance is paging now: a tick that claims one again (its lease ran out meanwhile) leaves it be. */
    private final java.util.Set<String> inFlight = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * @param owned whether this instance consumes a fingerprint's alerts (only then does it fire its tiers)
     * @param lease how long a claimed tier is this instance's before another may take it: longer than paging it takes
     */
    public TierClock(
            TierLog tiers,
            Dispatcher dispatcher,
            Predicate<String> owned,
            Clock clock,
            Scheduler timer,
            Duration every,
            Duration lease) {
        this.tiers = tiers;
        this.dispatcher = dispatcher;
        this.owned = owned;
        this.clock = clock;
        this.timer = timer;
        this.every = every;
        this.lease = lease;
    }

    /** Starts ticking; a tick still paging when the next is due makes that one wait rather than overlap. */
    public synchronized TierClock start(MeterRegistry meters) {
        if (ticking == null) {
            meters.gauge("vigil.notifier.tier.clock.running", this, c -> c.ticking == null ? 0 : 1);
            ticking = Flux.interval(every, every, timer)
                    .onBackpressureDrop()
                    .concatMap(tick -> fireDue(), 1)
                    .subscribe();
        }
        return this;
    }

    /** Pages the tiers due now; completes with how many were taken. */
    public Mono<Long> fireDue() {
        return tiers.claimDue(clock.instant(), lease, BATCH, owned)
                .filter(t -> inFlight.add(key(t)))
                .flatMap(t -> dispatcher.escalate(t).doFinally(s -> inFlight.remove(key(t))), CONCURRENCY)
                .count()
                .onErrorResume(e -> {
                    LOG.warn("escalation tiers not checked this tick (retrying at the next): {}", e.toString());
                    return Mono.just(0L);
                });
    }

    private static String key(DueTier t) {
        return t.tier() + "\n" + t.fingerprint() + "\n" + t.incidentId();
    }

    @Override
    public synchronized void close() {
        if (ticking != null) {
            ticking.dispose();
            ticking = null;
        }
    }
}
