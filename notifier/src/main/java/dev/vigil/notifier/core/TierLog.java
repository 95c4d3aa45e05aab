package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertEvent;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The port to the escalation timers: one durable row per (incident, fingerprint, tier), so a climb survives
 * restarts and kill -9 and is shared by every notifier instance. Every operation errors when the store is
 * unreachable; callers retry, so an outage delays a tier rather than dropping it.
 */
public interface TierLog {
    /**
     * Schedules the tiers of {@code page}'s climb, each due {@code base + after}. Idempotent per incident and tier: a
     * later page of the same incident (a redelivery, a reminder) schedules nothing new.
     */
    Mono<Void> schedule(AlertEvent page, List<Tier> tiers, Instant base);

    /**
     * Claims up to {@code limit} pending tiers due at {@code now} for {@code lease}: a tier claimed by an instance
     * that died is claimed again once its lease has run out. {@code owned} picks the fingerprints this instance
     * fires (the ones whose alerts it consumes, so a tier never races its incident's acknowledgement or resolution).
     */
    Flux<DueTier> claimDue(
            Instant now, java.time.Duration lease, int limit, java.util.function.Predicate<String> owned);

    /** Whether the tier is still to fire (not fired or cancelled since it was claimed). */
    Mono<Boolean> pending(DueTier tier);

    /** Marks the tier fired (its channels were paged, or recorded silenced) and forgets its page. */
    Mono<Void> fired(DueTier tier, Instant at);

    /** Cancels the incident's tiers not yet fired ({@code reason}: acknowledged or resolved); returns how many. */
    Mono<Integer> cancel(String incidentId, String fingerprint, String reason);

    /** The channels of the incident's tiers that fired: its reminders go there too. */
    Mono<Set<String>> firedChannels(String incidentId, String fingerprint);

    /** The incident's tiers in order, with their state: what the console shows. */
    Mono<List<TierState>> tiers(String incidentId, String fingerprint);

    /** Where one tier of an incident stands. {@code state} is pending, fired or cancelled; times are epoch ms. */
    record TierState(int tier, List<String> channels, long dueAt, String state, Long firedAt, String cancelledBy) {
        public TierState {
            channels = List.copyOf(channels);
        }
    }

    /** No escalation tiers anywhere: routes without {@code escalation}. */
    static TierLog none() {
        return NoTiers.INSTANCE;
    }
}
