package dev.vigil.notifier.claim;

import dev.vigil.notifier.digest.DigestData;
import dev.vigil.notifier.digest.DigestData.ChannelFailures;
import dev.vigil.notifier.digest.DigestData.RecordedGroup;
import dev.vigil.notifier.digest.DigestInbox;
import dev.vigil.notifier.digest.DigestStore;
import dev.vigil.notifier.digest.IncidentRow;
import dev.vigil.schemas.contract.AlertEvent;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The digest's tables on PostgreSQL ({@code digests}, {@code digest_entries}) and its reads of the incidents,
 * delivery attempts and claims the notifier keeps anyway. A day's claim is one conditional update, so of several
 * instances claiming at once exactly one gets it.
 */
public final class DigestTables implements DigestStore, DigestInbox {
    /** Rows read for one digest at most; more incidents than this in one day is an outage the digest cannot list. */
    static final int INCIDENTS_MAX = 5000;

    static final int RECORDED_GROUPS_MAX = 200;

    private static final String CLAIM_SQL = "UPDATE digests SET owner = $2, claimed_at = now(),"
            + " lease_until = now() + $3::interval WHERE day = $1 AND sent_at IS NULL"
            + " AND (lease_until IS NULL OR lease_until < now() OR owner = $2) RETURNING day";

    private static final String INCIDENTS_SQL = "SELECT i.incident_id, i.fingerprint, i.service, i.severity, i.state,"
            + " (extract(epoch FROM i.first_seen) * 1000)::bigint AS fs,"
            + " (extract(epoch FROM i.updated_at) * 1000)::bigint AS up,"
            + " EXISTS (SELECT 1 FROM delivery_attempts a WHERE a.incident_id = i.incident_id"
            + " AND a.fingerprint = i.fingerprint AND a.state = 'acknowledged' AND a.outcome = 'delivered') AS ack"
            + " FROM incidents i WHERE i.first_seen < to_timestamp($2 / 1000.0)"
            + " AND (i.state <> 'resolved' OR i.updated_at >= to_timestamp($1 / 1000.0))"
            + " ORDER BY i.first_seen LIMIT " + INCIDENTS_MAX;

    private static final String FAILED_SQL = "SELECT channel, count(*) AS n FROM delivery_attempts"
            + " WHERE at >= to_timestamp($1 / 1000.0) AND at < to_timestamp($2 / 1000.0)"
            + " AND outcome IN ('transient', 'permanent') GROUP BY channel";

    private static final String DEAD_SQL = "SELECT channel, count(*) AS n FROM claims WHERE status = 'dead'"
            + " AND settled_at >= to_timestamp($1 / 1000.0) AND settled_at < to_timestamp($2 / 1000.0)"
            + " GROUP BY channel";

    private static final String RECORDED_SQL = "SELECT service, fingerprint, count(*) AS n,"
            + " (array_agg(severity ORDER BY recorded_at DESC))[1] AS severity,"
            + " (array_agg(summary ORDER BY recorded_at DESC))[1] AS summary FROM digest_entries"
            + " WHERE recorded_at >= to_timestamp($1 / 1000.0) AND recorded_at < to_timestamp($2 / 1000.0)"
            + " GROUP BY service, fingerprint ORDER BY n DESC, fingerprint LIMIT " + RECORDED_GROUPS_MAX;

    private static final String RECORD_SQL = "INSERT INTO digest_entries (event_id, channel, fingerprint,"
            + " incident_id, service, severity, state, summary) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
            + " ON CONFLICT (event_id, channel) DO NOTHING";

    private final ConnectionFactory db;

    public DigestTables(ConnectionFactory db) {
        this.db = db;
    }

    @Override
    public Mono<Void> record(AlertEvent e, String channel) {
        return withConnection(c -> {
            Statement s = c.createStatement(RECORD_SQL);
            s.bind("$1", e.eventId())
                    .bind("$2", channel)
                    .bind("$3", e.fingerprint())
                    .bind("$4", e.incidentId())
                    .bind("$5", e.service())
                    .bind("$6", e.severity().wire())
                    .bind("$7", e.state().wire())
                    .bind("$8", e.summary());
            return Flux.from(s.execute()).flatMap(r -> r.getRowsUpdated()).then();
        });
    }

    @Override
    public Mono<Void> expect(LocalDate day) {
        return withConnection(c -> {
            Statement s = c.createStatement("INSERT INTO digests (day) VALUES ($1) ON CONFLICT (day) DO NOTHING");
            s.bind("$1", day);
            return Flux.from(s.execute()).flatMap(r -> r.getRowsUpdated()).then();
        });
    }

    @Override
    public Mono<DayState> claim(LocalDate day, String owner, Duration lease) {
        return withConnection(c -> {
            Statement s = c.createStatement(CLAIM_SQL);
            s.bind("$1", day).bind("$2", owner).bind("$3", lease.toMillis() + " milliseconds");
            return Flux.from(s.execute())
                    .flatMap(r -> r.map((row, m) -> DayState.CLAIMED))
                    .next()
                    .switchIfEmpty(Mono.defer(() -> {
                        Statement q =
                                c.createStatement("SELECT sent_at IS NOT NULL AS sent FROM digests WHERE day = $1");
                        q.bind("$1", day);
                        return Flux.from(q.execute())
                                .flatMap(r -> r.map((row, m) -> Boolean.TRUE.equals(row.get("sent", Boolean.class))
                                        ? DayState.SENT
                                        : DayState.HELD))
                                .next()
                                .defaultIfEmpty(DayState.NOT_OWED);
                    }));
        });
    }

    @Override
    public Mono<Void> markSent(LocalDate day, List<String> channels) {
        return withConnection(c -> {
            Statement s = c.createStatement("UPDATE digests SET sent_at = now(), channels = $2::text[] WHERE day = $1");
            s.bind("$1", day).bind("$2", channels.toArray(new String[0]));
            return Flux.from(s.execute()).flatMap(r -> r.getRowsUpdated()).then();
        });
    }

    @Override
    public Mono<DigestData> read(Instant from, Instant to) {
        long f = from.toEpochMilli();
        long t = to.toEpochMilli();
        Mono<List<IncidentRow>> incidents = query(INCIDENTS_SQL, f, t, row -> {
            boolean resolved = "resolved".equals(row.get("state", String.class));
            return new IncidentRow(
                    row.get("incident_id", String.class),
                    row.get("fingerprint", String.class),
                    row.get("service", String.class),
                    row.get("severity", String.class),
                    Instant.ofEpochMilli(row.get("fs", Long.class)),
                    resolved ? Instant.ofEpochMilli(row.get("up", Long.class)) : null,
                    Boolean.TRUE.equals(row.get("ack", Boolean.class)));
        });
        Mono<List<Object[]>> failed = query(
                FAILED_SQL, f, t, row -> new Object[] {row.get("channel", String.class), row.get("n", Long.class)});
        Mono<List<Object[]>> dead =
                query(DEAD_SQL, f, t, row -> new Object[] {row.get("channel", String.class), row.get("n", Long.class)});
        Mono<List<RecordedGroup>> recorded = query(
                RECORDED_SQL,
                f,
                t,
                row -> new RecordedGroup(
                        row.get("service", String.class),
                        row.get("fingerprint", String.class),
                        row.get("severity", String.class),
                        row.get("n", Long.class),
                        row.get("summary", String.class)));
        return Mono.zip(incidents, failed, dead, recorded)
                .map(z -> new DigestData(z.getT1(), failures(z.getT2(), z.getT3()), z.getT4()));
    }

    private static List<ChannelFailures> failures(List<Object[]> failed, List<Object[]> dead) {
        Map<String, long[]> byChannel = new TreeMap<>();
        failed.forEach(r -> byChannel.computeIfAbsent((String) r[0], k -> new long[2])[0] = (Long) r[1]);
        dead.forEach(r -> byChannel.computeIfAbsent((String) r[0], k -> new long[2])[1] = (Long) r[1]);
        return byChannel.entrySet().stream()
                .map(e -> new ChannelFailures(e.getKey(), e.getValue()[0], e.getValue()[1]))
                .toList();
    }

    private <T> Mono<List<T>> query(String sql, long from, long to, Function<io.r2dbc.spi.Row, T> map) {
        return withConnection(c -> {
            Statement s = c.createStatement(sql);
            s.bind("$1", from).bind("$2", to);
            return Flux.from(s.execute())
                    .flatMap(r -> r.map((row, m) -> map.apply(row)))
                    .collectList();
        });
    }

    private <T> Mono<T> withConnection(Function<Connection, Mono<T>> work) {
        return Mono.usingWhen(Mono.from(db.create()), work, c -> Mono.from(c.close()));
    }
}
