package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The tier log of a notifier whose routes have no escalation: it holds nothing and schedules nothing. */
final class NoTiers implements TierLog {
    static final NoTiers INSTANCE = new NoTiers();

    private NoTiers() {}

    @Override
    public Mono<Void> schedule(AlertEvent page, List<Tier> tiers, Instant base) {
        return tiers.isEmpty()
                ? Mono.empty()
                : Mono.error(new IllegalStateException("escalation tiers configured without a tier store"));
    }

    @Override
    public Flux<DueTier> claimDue(Instant now, Duration lease, int limit, Predicate<String> owned) {
        return Flux.empty();
    }

    @Override
    public Mono<Boolean> pending(DueTier tier) {
        return Mono.just(false);
    }

    @Override
    public Mono<Void> fired(DueTier tier, Instant at) {
        return Mono.empty();
    }

    @Override
    public Mono<Integer> cancel(String incidentId, String fingerprint, String reason) {
        return Mono.just(0);
    }

    @Override
    public Mono<Set<String>> firedChannels(String incidentId, String fingerprint) {
        return Mono.just(Set.of());
    }

    @Override
    public Mono<List<TierState>> tiers(String incidentId, String fingerprint) {
        return Mono.just(List.of());
    }
}
