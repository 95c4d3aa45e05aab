package dev.vigil.notifier.core;

import java.time.Duration;
import java.util.List;

/**
 * One step of an escalation climb: when an incident paged by a route is still unacknowledged {@code after} its page,
 * {@code channels} are paged too. Tier 1 is the route's own channels, paged at once; escalation tiers are numbered
 * from 2 in the order they are written, each later than the one before.
 */
public record Tier(int number, Duration after, List<String> channels) {
    public Tier {
        if (number < 2) {
            throw new IllegalArgumentException("escalation tiers are numbered from 2 (tier 1 is the route itself)");
        }
        if (after == null || after.isNegative() || after.isZero()) {
            throw new IllegalArgumentException("a tier's delay must be positive");
        }
        channels = List.copyOf(channels);
        if (channels.isEmpty()) {
            throw new IllegalArgumentException("a tier pages at least one channel");
        }
    }
}
