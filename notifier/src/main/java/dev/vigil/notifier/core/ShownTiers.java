package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.EscalationStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A tier log that shows each climb after it changes (scheduled, a tier fired, the rest cancelled) on a
 * {@link TierBoard}. Showing is best effort: a board that is away or slow is logged and skipped, never a reason to
 * hold a page; the next change shows the whole climb again.
 */
public final class ShownTiers implements TierLog {
    private static final Logger LOG = LoggerFactory.getLogger(ShownTiers.class);
    private static final Duration SHOW_TIMEOUT = Duration.ofSeconds(5);
    private final TierLog tiers;
    private final TierBoard board;
    private final Clock clock;

    public ShownTiers(TierLog tiers, TierBoard board, Clock clock) {
        this.tiers = tiers;
        this.board = board;
        this.clock = clock;
    }

    @Override
    public Mono<Void> schedule(AlertEvent page, List<Tier> climb, Instant base) {
        return tiers.schedule(page, climb, base).then(show(page.incidentId(), page.fingerprint()));
    }

    @Override
    public Flux<DueTier> claimDue(Instant now, Duration lease, int limit, Predicate<String> owned) {
        return tiers.claimDue(now, lease, limit, owned);
    }

    @Override
    public Mono<Boolean> pending(DueTier tier) {
        return tiers.pending(tier);
    }

    @Override
    public Mono<Void> fired(DueTier tier, Instant at) {
        return tiers.fired(tier, at).then(show(tier.incidentId(), tier.fingerprint()));
    }

    @Override
    public Mono<Integer> cancel(String incidentId, String fingerprint, String reason) {
        return tiers.cancel(incidentId, fingerprint, reason)
                .flatMap(n ->
                        n == 0 ? Mono.just(0) : show(incidentId, fingerprint).thenReturn(n));
    }

    @Override
    public Mono<Set<String>> firedChannels(String incidentId, String fingerprint) {
        return tiers.firedChannels(incidentId, fingerprint);
    }

    @Override
    public Mono<List<TierState>> tiers(String incidentId, String fingerprint) {
        return tiers.tiers(incidentId, fingerprint);
    }

    private Mono<Void> show(String incidentId, String fingerprint) {
        return tiers.tiers(incidentId, fingerprint)
                .filter(states -> !states.isEmpty())
                .flatMap(states -> board.show(new EscalationStatus(
                        1,
                        fingerprint,
                        incidentId,
                        states.stream()
                                .map(t -> new EscalationStatus.Step(
                                        t.tier(), t.channels(), t.dueAt(), t.state(), t.firedAt(), t.cancelledBy()))
                                .toList(),
                        clock.millis())))
                .timeout(SHOW_TIMEOUT)
                .onErrorResume(e -> {
                    LOG.warn(
                            "escalation of incident {} not shown (the timers are unaffected): {}",
                            incidentId,
                            e.toString());
                    return Mono.empty();
                });
    }
}
