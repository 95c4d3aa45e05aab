package dev.vigil.notifier.claim;

import dev.vigil.notifier.core.DueTier;
import dev.vigil.notifier.core.Tier;
import dev.vigil.notifier.core.TierLog;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.json.JsonSerde;
import dev.vigil.schemas.json.VigilSerdes;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Row;
import io.r2dbc.spi.Statement;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Escalation tiers in PostgreSQL ({@code escalation_tiers}, schema version 4). Times come from the caller's clock,
 * never the database's, so every instance and every test reads one time line.
 *
 * <p>Claiming takes due rows with {@code FOR UPDATE SKIP LOCKED} and stamps them with this instance and a lease:
 * two instances polling together never take the same row, and a row whose claimer died is taken again once its
 * lease has run out. Firing twice is still harmless: the tier's page has its own event id, so the per-(event,
 * channel) claims deliver it once.
 */
public final class TierStore implements TierLog {
    private static final String SCHEDULE_SQL = "INSERT INTO escalation_tiers (incident_id, fingerprint, tier, tiers,"
            + " channels, due_at, page, status) SELECT $1, $2, t.tier, $3, string_to_array(t.channels, ','),"
            + " $4::timestamptz + make_interval(secs => t.after_ms / 1000.0), $5, 'pending'"
            + " FROM unnest($6::integer[], $7::bigint[], $8::text[]) AS t(tier, after_ms, channels)"
            + " ON CONFLICT (incident_id, fingerprint, tier) DO NOTHING";
    private static final String CLAIM_SQL = "UPDATE escalation_tiers t SET owner = $1, lease_until = $3"
            + " FROM (SELECT incident_id, fingerprint, tier FROM escalation_tiers WHERE status = 'pending'"
            + " AND due_at <= $2 AND (lease_until IS NULL OR lease_until <= $2) AND fingerprint = ANY($5::text[])"
            + " ORDER BY due_at LIMIT $4 FOR UPDATE SKIP LOCKED) d"
            + " WHERE t.incident_id = d.incident_id AND t.fingerprint = d.fingerprint AND t.tier = d.tier"
            + " RETURNING t.incident_id, t.fingerprint, t.tier, t.tiers, t.channels, t.due_at, t.page";
    /**
     * Due tiers of incidents the notifier already recorded as resolved end here: their resolution passed while no
     * instance cancelled climbs (the routing had no escalation then), and paging them now would wake someone for
     * nothing.
     */
    private static final String END_RESOLVED_SQL = "UPDATE escalation_tiers t SET status = 'cancelled',"
            + " cancelled_by = 'resolved', page = NULL, lease_until = NULL WHERE t.status = 'pending' AND t.due_at <= $1"
            + " AND EXISTS (SELECT 1 FROM incidents i WHERE i.incident_id = t.incident_id"
            + " AND i.fingerprint = t.fingerprint AND i.state = 'resolved')";
    /** The fingerprints with a due tier: the caller keeps those it owns before claiming. */
    private static final String DUE_SQL = "SELECT DISTINCT fingerprint FROM escalation_tiers WHERE status = 'pending'"
            + " AND due_at <= $1 AND (lease_until IS NULL OR lease_until <= $1) LIMIT $2";

    private final ConnectionFactory db;
    private final String owner;
    private final JsonSerde<AlertEvent> serde = VigilSerdes.alertEvent();

    public TierStore(ConnectionFactory db, String owner) {
        this.db = db;
        this.owner = owner;
    }

    @Override
    public Mono<Void> schedule(AlertEvent page, List<Tier> tiers, Instant base) {
        if (tiers.isEmpty()) {
            return Mono.empty();
        }
        Integer[] numbers = tiers.stream().map(Tier::number).toArray(Integer[]::new);
        Long[] after = tiers.stream().map(t -> t.after().toMillis()).toArray(Long[]::new);
        // channel names are slugs: a comma never occurs in one
        String[] channels =
                tiers.stream().map(t -> String.join(",", t.channels())).toArray(String[]::new);
        int last = tiers.get(tiers.size() - 1).number();
        return withConnection(c -> {
            Statement s = c.createStatement(SCHEDULE_SQL);
            s.bind("$1", page.incidentId())
                    .bind("$2", page.fingerprint())
                    .bind("$3", last)
                    .bind("$4", at(base))
                    .bind("$5", new String(serde.serialize(null, page), StandardCharsets.UTF_8))
                    .bind("$6", numbers)
                    .bind("$7", after)
                    .bind("$8", channels);
            return Flux.from(s.execute()).flatMap(r -> r.getRowsUpdated()).then();
        });
    }

    @Override
    public Flux<DueTier> claimDue(Instant now, Duration lease, int limit, Predicate<String> owned) {
        return withConnection(c -> {
                    Statement end = c.createStatement(END_RESOLVED_SQL);
                    end.bind("$1", at(now));
                    Statement s = c.createStatement(DUE_SQL);
                    s.bind("$1", at(now)).bind("$2", limit);
                    return Flux.from(end.execute())
                            .flatMap(r -> r.getRowsUpdated())
                            .thenMany(Flux.from(s.execute()))
                            .flatMap(r -> r.map((row, m) -> row.get("fingerprint", String.class)))
                            .filter(owned)
                            .collectList();
                })
                .flatMapMany(mine -> mine.isEmpty()
                        ? Flux.empty()
                        : withConnection(c -> {
                                    Statement s = c.createStatement(CLAIM_SQL);
                                    s.bind("$1", owner)
                                            .bind("$2", at(now))
                                            .bind("$3", at(now.plus(lease)))
                                            .bind("$4", limit)
                                            .bind("$5", mine.toArray(new String[0]));
                                    return Flux.from(s.execute())
                                            .flatMap(r -> r.map((row, m) -> due(row)))
                                            .collectList();
                                })
                                .flatMapIterable(Function.identity()));
    }

    @Override
    public Mono<Boolean> pending(DueTier tier) {
        return withConnection(c -> {
            Statement s = c.createStatement("SELECT status, owner FROM escalation_tiers WHERE incident_id = $1"
                    + " AND fingerprint = $2 AND tier = $3");
            s.bind("$1", tier.incidentId()).bind("$2", tier.fingerprint()).bind("$3", tier.tier());
            return Flux.from(s.execute())
                    .flatMap(r -> r.map((row, m) -> "pending".equals(row.get("status", String.class))
                            && owner.equals(row.get("owner", String.class))))
                    .next()
                    .defaultIfEmpty(false);
        });
    }

    @Override
    public Mono<Void> fired(DueTier tier, Instant at) {
        return withConnection(c -> {
            Statement s = c.createStatement("UPDATE escalation_tiers SET status = 'fired', fired_at = $4, page = NULL,"
                    + " lease_until = NULL WHERE incident_id = $1 AND fingerprint = $2 AND tier = $3"
                    + " AND status = 'pending'");
            s.bind("$1", tier.incidentId())
                    .bind("$2", tier.fingerprint())
                    .bind("$3", tier.tier())
                    .bind("$4", at(at));
            return Flux.from(s.execute()).flatMap(r -> r.getRowsUpdated()).then();
        });
    }

    @Override
    public Mono<Integer> cancel(String incidentId, String fingerprint, String reason) {
        return withConnection(c -> {
            Statement s = c.createStatement("UPDATE escalation_tiers SET status = 'cancelled', cancelled_by = $3,"
                    + " page = NULL, lease_until = NULL"
                    + " WHERE incident_id = $1 AND fingerprint = $2 AND status = 'pending'");
            s.bind("$1", incidentId).bind("$2", fingerprint).bind("$3", reason);
            return Flux.from(s.execute())
                    .flatMap(r -> r.getRowsUpdated())
                    .reduce(0L, Long::sum)
                    .map(Long::intValue);
        });
    }

    @Override
    public Mono<Set<String>> firedChannels(String incidentId, String fingerprint) {
        return withConnection(c -> {
            Statement s = c.createStatement("SELECT DISTINCT unnest(channels) AS channel FROM escalation_tiers"
                    + " WHERE incident_id = $1 AND fingerprint = $2 AND status = 'fired'");
            s.bind("$1", incidentId).bind("$2", fingerprint);
            return Flux.from(s.execute())
                    .flatMap(r -> r.map((row, m) -> row.get("channel", String.class)))
                    .collect(Collectors.toUnmodifiableSet());
        });
    }

    @Override
    public Mono<List<TierState>> tiers(String incidentId, String fingerprint) {
        return withConnection(c -> {
            Statement s = c.createStatement("SELECT tier, channels, due_at, status, fired_at, cancelled_by"
                    + " FROM escalation_tiers WHERE incident_id = $1 AND fingerprint = $2 ORDER BY tier");
            s.bind("$1", incidentId).bind("$2", fingerprint);
            return Flux.from(s.execute())
                    .flatMap(r -> r.map((row, m) -> {
                        OffsetDateTime fired = row.get("fired_at", OffsetDateTime.class);
                        return new TierState(
                                row.get("tier", Integer.class),
                                Arrays.asList(row.get("channels", String[].class)),
                                row.get("due_at", OffsetDateTime.class)
                                        .toInstant()
                                        .toEpochMilli(),
                                row.get("status", String.class),
                                fired == null ? null : fired.toInstant().toEpochMilli(),
                                row.get("cancelled_by", String.class));
                    }))
                    .collectList();
        });
    }

    private DueTier due(Row row) {
        String page = row.get("page", String.class);
        return new DueTier(
                row.get("incident_id", String.class),
                row.get("fingerprint", String.class),
                row.get("tier", Integer.class),
                row.get("tiers", Integer.class),
                new ArrayList<>(Arrays.asList(row.get("channels", String[].class))),
                row.get("due_at", OffsetDateTime.class).toInstant(),
                serde.deserialize(null, page.getBytes(StandardCharsets.UTF_8)));
    }

    private static OffsetDateTime at(Instant i) {
        return OffsetDateTime.ofInstant(i, ZoneOffset.UTC);
    }

    private <T> Mono<T> withConnection(Function<Connection, Mono<T>> work) {
        return Mono.usingWhen(Mono.from(db.create()), work, c -> Mono.from(c.close()));
    }
}
