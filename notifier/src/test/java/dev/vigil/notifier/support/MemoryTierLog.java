package dev.vigil.notifier.support;

import dev.vigil.notifier.core.DueTier;
import dev.vigil.notifier.core.Tier;
import dev.vigil.notifier.core.TierLog;
import dev.vigil.schemas.contract.AlertEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Escalation tiers in memory with the PostgreSQL store's rules (idempotent scheduling, claims with an owner and a
 * lease, fired and cancelled rows kept): one {@link Table} shared by every instance's view, as the database is.
 */
public final class MemoryTierLog implements TierLog {
    /** The rows every instance sees. */
    public static final class Table {
        final Map<String, Row> rows = new LinkedHashMap<>();

        public synchronized List<Row> rows() {
            return List.copyOf(rows.values());
        }
    }

    /** One tier of one incident. */
    public static final class Row {
        public final String incidentId;
        public final String fingerprint;
        public final int tier;
        public final int tiers;
        public final List<String> channels;
        public final Instant dueAt;
        AlertEvent page;
        public String status = "pending";
        public String owner;
        Instant leaseUntil;
        public Instant firedAt;
        public String cancelledBy;

        Row(
                String incidentId,
                String fingerprint,
                int tier,
                int tiers,
                List<String> channels,
                Instant dueAt,
                AlertEvent page) {
            this.incidentId = incidentId;
            this.fingerprint = fingerprint;
            this.tier = tier;
            this.tiers = tiers;
            this.channels = List.copyOf(channels);
            this.dueAt = dueAt;
            this.page = page;
        }
    }

    private final Table table;
    private final String owner;

    public MemoryTierLog(Table table, String owner) {
        this.table = table;
        this.owner = owner;
    }

    private static String key(String incidentId, String fingerprint, int tier) {
        return incidentId + "\n" + fingerprint + "\n" + tier;
    }

    @Override
    public Mono<Void> schedule(AlertEvent page, List<Tier> tiers, Instant base) {
        return Mono.fromRunnable(() -> {
            synchronized (table) {
                int last = tiers.get(tiers.size() - 1).number();
                for (Tier t : tiers) {
                    table.rows.putIfAbsent(
                            key(page.incidentId(), page.fingerprint(), t.number()),
                            new Row(
                                    page.incidentId(),
                                    page.fingerprint(),
                                    t.number(),
                                    last,
                                    t.channels(),
                                    base.plus(t.after()),
                                    page));
                }
            }
        });
    }

    @Override
    public Flux<DueTier> claimDue(Instant now, Duration lease, int limit, Predicate<String> owned) {
        return Flux.defer(() -> {
            List<DueTier> claimed = new ArrayList<>();
            synchronized (table) {
                table.rows.values().stream()
                        .filter(r -> r.status.equals("pending")
                                && !r.dueAt.isAfter(now)
                                && (r.leaseUntil == null || !r.leaseUntil.isAfter(now))
                                && owned.test(r.fingerprint))
                        .sorted(Comparator.comparing(r -> r.dueAt))
                        .limit(limit)
                        .forEach(r -> {
                            r.owner = owner;
                            r.leaseUntil = now.plus(lease);
                            claimed.add(new DueTier(
                                    r.incidentId, r.fingerprint, r.tier, r.tiers, r.channels, r.dueAt, r.page));
                        });
            }
            return Flux.fromIterable(claimed);
        });
    }

    @Override
    public Mono<Boolean> pending(DueTier tier) {
        return Mono.fromCallable(() -> {
            synchronized (table) {
                Row r = table.rows.get(key(tier.incidentId(), tier.fingerprint(), tier.tier()));
                return r != null && r.status.equals("pending") && owner.equals(r.owner);
            }
        });
    }

    @Override
    public Mono<Void> fired(DueTier tier, Instant at) {
        return Mono.fromRunnable(() -> {
            synchronized (table) {
                Row r = table.rows.get(key(tier.incidentId(), tier.fingerprint(), tier.tier()));
                if (r != null && r.status.equals("pending")) {
                    r.status = "fired";
                    r.firedAt = at;
                    r.page = null;
                    r.leaseUntil = null;
                }
            }
        });
    }

    @Override
    public Mono<Integer> cancel(String incidentId, String fingerprint, String reason) {
        return Mono.fromCallable(() -> {
            int n = 0;
            synchronized (table) {
                for (Row r : table.rows.values()) {
                    if (r.incidentId.equals(incidentId)
                            && r.fingerprint.equals(fingerprint)
                            && r.status.equals("pending")) {
                        r.status = "cancelled";
                        r.cancelledBy = reason;
                        r.page = null;
                        r.leaseUntil = null;
                        n++;
                    }
                }
            }
            return n;
        });
    }

    @Override
    public Mono<Set<String>> firedChannels(String incidentId, String fingerprint) {
        return Mono.fromCallable(() -> {
            Set<String> channels = new LinkedHashSet<>();
            synchronized (table) {
                table.rows.values().stream()
                        .filter(r -> r.incidentId.equals(incidentId)
                                && r.fingerprint.equals(fingerprint)
                                && r.status.equals("fired"))
                        .forEach(r -> channels.addAll(r.channels));
            }
            return Set.copyOf(channels);
        });
    }

    @Override
    public Mono<List<TierState>> tiers(String incidentId, String fingerprint) {
        return Mono.fromCallable(() -> {
            synchronized (table) {
                return table.rows.values().stream()
                        .filter(r -> r.incidentId.equals(incidentId) && r.fingerprint.equals(fingerprint))
                        .sorted(Comparator.comparingInt(r -> r.tier))
                        .map(r -> new TierState(
                                r.tier,
                                r.channels,
                                r.dueAt.toEpochMilli(),
                                r.status,
                                r.firedAt == null ? null : r.firedAt.toEpochMilli(),
                                r.cancelledBy))
                        .toList();
            }
        });
    }
}
