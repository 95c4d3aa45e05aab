package dev.vigil.notifier.claim;

import dev.vigil.notifier.core.Attempt;
import dev.vigil.notifier.core.Claim;
import dev.vigil.notifier.core.DeliveryLog;
import dev.vigil.notifier.core.FailingChannel;
import dev.vigil.notifier.core.IncidentRecord;
import dev.vigil.notifier.core.Settlement;
import dev.vigil.schemas.contract.AlertEvent;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Row;
import io.r2dbc.spi.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@link DeliveryLog} on PostgreSQL through R2DBC. A claim is one atomic upsert on (event_id, channel): a new row,
 * or an existing row that is released, whose lease has run out, or whose delivery is older than the dedupe window,
 * becomes ours (a fresh token); anything else is a duplicate (folded: counted) or busy (someone holds a live lease).
 * A claim taken from a holder whose lease ran out names that holder ({@link Claim#takenOverFrom}), so the resend can
 * be counted as a self-heal.
 * Concurrent claims, batched requests and the instances' own statements are serialised by the row lock
 * {@code ON CONFLICT DO UPDATE} takes. Claims, settlements and incident upserts are batched (group commit:
 * arrays through {@code unnest}), so one statement serves many deliveries.
 */
public final class ClaimStore implements DeliveryLog {
    /** A claim whose holder neither settled nor released it within its lease: it died or hung mid-send. */
    private static final String STALE = "(c.status = 'claimed' AND c.lease_until < now())";

    private static final String CLAIMABLE = "(c.status = 'released'"
            + " OR " + STALE
            + " OR (c.status IN ('delivered', 'dead') AND c.claimed_at < now() - $6::interval))";

    /**
     * The claim statement; {@code $1..$3} arrays of event ids, channels, tokens; $4 owner; $5 lease; $6 window. On a
     * conflict the row is judged once ({@code q.k}: claimable, {@code q.s}: stale) and every column follows from that:
     * the driver tokenizes a statement's text on every execution, so the text is kept short rather than repeating the
     * judgement per column.
     */
    public static final String CLAIM_SQL = "INSERT INTO claims AS c (event_id, channel, status, token, owner,"
            + " claimed_at, lease_until, attempts)"
            + " SELECT u.e, u.ch, 'claimed', u.t, $4, now(), now() + $5::interval, 1"
            + " FROM unnest($1::text[], $2::text[], $3::text[]) AS u(e, ch, t)"
            + " ON CONFLICT (event_id, channel) DO UPDATE SET (status, token, owner, claimed_at, lease_until,"
            + " settled_at, attempts, folded, taken_over_from) = (SELECT"
            + " CASE WHEN q.k THEN 'claimed' ELSE c.status END,"
            + " CASE WHEN q.k THEN EXCLUDED.token ELSE c.token END,"
            + " CASE WHEN q.k THEN EXCLUDED.owner ELSE c.owner END,"
            + " CASE WHEN q.k THEN now() ELSE c.claimed_at END,"
            + " CASE WHEN q.k THEN EXCLUDED.lease_until ELSE c.lease_until END,"
            + " CASE WHEN q.k THEN NULL ELSE c.settled_at END,"
            + " c.attempts + CASE WHEN q.k THEN 1 ELSE 0 END,"
            + " c.folded + CASE WHEN q.k OR c.status = 'claimed' THEN 0 ELSE 1 END,"
            // the sub-select reads the row as it was, so this still sees the stale holder it replaces
            + " CASE WHEN q.k THEN CASE WHEN q.s THEN coalesce(c.owner, '') END ELSE c.taken_over_from END"
            + " FROM (SELECT " + CLAIMABLE + " AS k, " + STALE + " AS s) q)"
            + " RETURNING c.event_id, c.channel, c.status, c.token, c.taken_over_from";

    /**
     * Settles the claims and records their attempts; returns the channels of the delivered ones that have a
     * delivery-failing alert open whose opened was dispatched (the same test as {@link #DISPATCHED_FAILING_SQL}).
     * The settlement reaches its claim row through the primary key's conflict arbiter, an index probe per row
     * whatever the planner believes about the table: an {@code UPDATE ... FROM} join is planned once per connection
     * and kept, and a plan made while the table was small (a hash join over a scan of the whole table) stays in use
     * as the table grows. Only a row whose token is still ours is changed; a claim row that is gone (removed by
     * hand) comes back settled.
     */
    private static final String SETTLE_SQL = "WITH s AS ("
            + " SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $13::text[])"
            + " AS s(event_id, channel, token, status, group_id)"
            + "), u AS (INSERT INTO claims AS c (event_id, channel, status, token, claimed_at, lease_until,"
            + " settled_at, group_id) SELECT s.event_id, s.channel, s.status, s.token, now(), now(), now(), s.group_id"
            + " FROM s ON CONFLICT (event_id, channel) DO UPDATE SET status = EXCLUDED.status, settled_at = now(),"
            + " lease_until = CASE WHEN EXCLUDED.status = 'released' THEN now() ELSE c.lease_until END,"
            + " group_id = EXCLUDED.group_id WHERE c.token = EXCLUDED.token RETURNING 1"
            + "), a AS (INSERT INTO delivery_attempts (event_id, incident_id, channel, attempt, outcome, http_status,"
            + " latency_ms, error, fingerprint, state, group_id)"
            + " SELECT * FROM unnest($1::text[], $5::text[], $2::text[], $6::int[], $7::text[], $8::int[],"
            + " $9::bigint[], $10::text[], $11::text[], $12::text[], $13::text[]) RETURNING 1"
            + ") SELECT f.channel FROM failing_channels f"
            + " WHERE f.channel IN (SELECT s.channel FROM s WHERE s.status = 'delivered')"
            + " AND EXISTS (SELECT 1 FROM incidents i WHERE i.incident_id = f.incident_id"
            + " AND i.fingerprint = f.fingerprint)";

    /** Pages are what a resolution is owed to; a resolution itself (or an acknowledgement notice) is none. */
    private static final String PAGED_SQL = "SELECT DISTINCT channel FROM delivery_attempts"
            + " WHERE incident_id = $1 AND fingerprint = $2 AND outcome = 'delivered'"
            + " AND state IN ('opened', 'reminder', 'escalated')";

    /** The no-op update returns (and locks) the row already there, so concurrent openers all get the same one. */
    private static final String OPEN_FAILING_SQL = "INSERT INTO failing_channels AS f (channel, fingerprint,"
            + " incident_id, first_seen, recipients) VALUES ($1, $2, $3, $4, $5::text[])"
            + " ON CONFLICT (channel) DO UPDATE SET channel = f.channel"
            + " RETURNING f.channel, f.incident_id, f.first_seen, f.recipients";

    /** Its incident row is written when the opened is dispatched, i.e. after it is on the alerts topic. */
    private static final String DISPATCHED_FAILING_SQL = "SELECT f.channel, f.incident_id, f.first_seen, f.recipients"
            + " FROM failing_channels f WHERE f.channel = $1 AND EXISTS (SELECT 1 FROM incidents i"
            + " WHERE i.incident_id = f.incident_id AND i.fingerprint = f.fingerprint)";

    private static final String INCIDENT_SQL = "INSERT INTO incidents AS i (incident_id, fingerprint, service,"
            + " severity, state, first_seen, last_seen, occurrences, events, silenced_events, source)"
            + " SELECT u.id, u.fp, u.svc, u.sev, u.st, to_timestamp(u.fs / 1000.0), to_timestamp(u.ls / 1000.0),"
            + " u.occ, 1, u.sil, u.src"
            + " FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[],"
            + " $8::int[], $9::int[], $10::text[]) AS u(id, fp, svc, sev, st, fs, ls, occ, sil, src)"
            + " ON CONFLICT (incident_id) DO UPDATE SET severity = EXCLUDED.severity, state = EXCLUDED.state,"
            + " first_seen = LEAST(i.first_seen, EXCLUDED.first_seen),"
            + " last_seen = GREATEST(i.last_seen, EXCLUDED.last_seen),"
            + " occurrences = GREATEST(i.occurrences, EXCLUDED.occurrences), events = i.events + 1,"
            + " silenced_events = i.silenced_events + EXCLUDED.silenced_events,"
            + " source = coalesce(i.source, EXCLUDED.source), updated_at = now()"
            // an incident id is fingerprint@firstBreach; an event pairing it with another fingerprint must not
            // rewrite that incident's row
            + " WHERE i.fingerprint = EXCLUDED.fingerprint";

    private final ConnectionFactory db;
    private final String window;
    private final String lease;
    private final String owner;
    private final Batcher<ClaimRequest, Claim> claims;
    private final Batcher<SettleRequest, Boolean> settles;
    private final Batcher<AlertEvent, Boolean> incidents;

    /**
     * @param lease how long a claim stays ours without being settled; must outlast one send (timeout included)
     */
    public ClaimStore(
            ConnectionFactory db,
            Duration window,
            Duration lease,
            String owner,
            int maxBatch,
            int maxConcurrentStatements) {
        this(
                db,
                window,
                lease,
                owner,
                maxBatch,
                maxConcurrentStatements,
                new io.micrometer.core.instrument.simple.SimpleMeterRegistry());
    }

    public ClaimStore(
            ConnectionFactory db,
            Duration window,
            Duration lease,
            String owner,
            int maxBatch,
            int maxConcurrentStatements,
            io.micrometer.core.instrument.MeterRegistry meters) {
        this.db = db;
        this.window = window.toMillis() + " milliseconds";
        this.lease = lease.toMillis() + " milliseconds";
        this.owner = owner;
        this.claims = new Batcher<>(
                "claims",
                maxBatch,
                maxConcurrentStatements,
                r -> r.eventId + "\u0000" + r.channel,
                this::claimBatch,
                meters);
        this.settles = new Batcher<>(
                "settles",
                maxBatch,
                maxConcurrentStatements,
                r -> r.claim.eventId() + "\u0000" + r.claim.channel(),
                this::settleBatch,
                meters);
        this.incidents = new Batcher<>(
                "incidents", maxBatch, maxConcurrentStatements, AlertEvent::incidentId, this::incidentBatch, meters);
    }

    @Override
    public Mono<Claim> claim(String eventId, String channel) {
        return claims.submit(
                new ClaimRequest(eventId, channel, UUID.randomUUID().toString()));
    }

    @Override
    public Mono<Boolean> settle(Claim claim, Attempt attempt, Settlement settlement) {
        return settles.submit(new SettleRequest(claim, attempt, settlement));
    }

    @Override
    public Mono<Void> recordIncident(AlertEvent event) {
        return incidents.submit(event).then();
    }

    @Override
    public Mono<Void> recordSilenced(AlertEvent e, List<String> channels) {
        if (channels.isEmpty()) {
            return Mono.empty();
        }
        return withConnection(c -> {
            Statement s = c.createStatement(
                    "INSERT INTO delivery_attempts (event_id, incident_id, channel, attempt,"
                            + " outcome, fingerprint, state) SELECT $1, $2, ch, 0, 'silenced', $4, $5 FROM unnest($3::text[]) AS ch");
            s.bind("$1", e.eventId())
                    .bind("$2", e.incidentId())
                    .bind("$3", channels.toArray(new String[0]))
                    .bind("$4", e.fingerprint())
                    .bind("$5", e.state().wire());
            return Flux.from(s.execute()).flatMap(r -> r.getRowsUpdated()).then();
        });
    }

    @Override
    public Mono<Optional<String>> vendorRef(String incidentId, String fingerprint, String channel) {
        return withConnection(c -> {
            Statement s = c.createStatement(
                    "SELECT vendor_ids ->> $2 AS ref FROM incidents WHERE incident_id = $1" + " AND fingerprint = $3");
            s.bind("$1", incidentId).bind("$2", channel).bind("$3", fingerprint);
            return Flux.from(s.execute())
                    .flatMap(r -> r.map((row, m) -> Optional.ofNullable(row.get("ref", String.class))))
                    .next()
                    .defaultIfEmpty(Optional.empty());
        });
    }

    @Override
    public Mono<Optional<IncidentRecord>> incidentByVendorRef(String channel, String vendorRef) {
        return withConnection(c -> {
            Statement s =
                    c.createStatement(INCIDENT_SELECT + " WHERE vendor_ids @> jsonb_build_object($1::text, $2::text)"
                            + " ORDER BY first_seen DESC LIMIT 1");
            s.bind("$1", channel).bind("$2", vendorRef);
            return Flux.from(s.execute())
                    .flatMap(r -> r.map((row, m) -> Optional.of(incidentOf(row))))
                    .next()
                    .defaultIfEmpty(Optional.empty());
        });
    }

    /** The columns an {@link IncidentRecord} is read from ({@link #incidentOf}), times as epoch ms. */
    private static final String INCIDENT_SELECT = "SELECT incident_id, fingerprint, service, severity, state,"
            + " (extract(epoch FROM first_seen) * 1000)::bigint AS fs, (extract(epoch FROM last_seen) * 1000)::bigint AS ls,"
            + " occurrences, source FROM incidents";

    private static IncidentRecord incidentOf(io.r2dbc.spi.Readable row) {
        return new IncidentRecord(
                row.get("incident_id", String.class),
                row.get("fingerprint", String.class),
                row.get("service", String.class),
                row.get("severity", String.class),
                row.get("state", String.class),
                row.get("fs", Long.class),
                row.get("ls", Long.class),
                row.get("occurrences", Integer.class),
                row.get("source", String.class));
    }

    @Override
    public Mono<Optional<IncidentRecord>> openIncident(String fingerprint) {
        return withConnection(c -> {
            Statement s =
                    c.createStatement(INCIDENT_SELECT + " WHERE fingerprint = $1 ORDER BY first_seen DESC LIMIT 1");
            s.bind("$1", fingerprint);
            return Flux.from(s.execute())
                    .flatMap(r -> r.map((row, m) -> incidentOf(row)))
                    .next()
                    .filter(i -> !"resolved".equals(i.state()))
                    .map(Optional::of)
                    .defaultIfEmpty(Optional.empty());
        });
    }

    @Override
    public Mono<Void> saveVendorRef(String incidentId, String fingerprint, String channel, String vendorRef) {
        return withConnection(c -> {
            Statement s =
                    c.createStatement("UPDATE incidents SET vendor_ids = vendor_ids || jsonb_build_object($2::text,"
                            + " $3::text), updated_at = now() WHERE incident_id = $1 AND fingerprint = $4");
            s.bind("$1", incidentId).bind("$2", channel).bind("$3", vendorRef).bind("$4", fingerprint);
            return Flux.from(s.execute()).flatMap(r -> r.getRowsUpdated()).then();
        });
    }

    @Override
    public Mono<Set<String>> pagedChannels(String incidentId, String fingerprint) {
        return withConnection(c -> {
            Statement s = c.createStatement(PAGED_SQL);
            s.bind("$1", incidentId).bind("$2", fingerprint);
            return Flux.from(s.execute())
                    .flatMap(r -> r.map((row, m) -> row.get("channel", String.class)))
                    .collect(Collectors.toUnmodifiableSet());
        });
    }

    @Override
    public Mono<FailingChannel> openFailing(FailingChannel candidate) {
        return withConnection(c -> {
            Statement s = c.createStatement(OPEN_FAILING_SQL);
            s.bind("$1", candidate.channel())
                    .bind("$2", candidate.fingerprint())
                    .bind("$3", candidate.incidentId())
                    .bind("$4", candidate.firstSeen())
                    .bind("$5", candidate.recipients().toArray(new String[0]));
            return Flux.from(s.execute())
                    .flatMap(r -> r.map((row, m) -> failing(row)))
                    .single();
        });
    }

    @Override
    public Mono<Optional<FailingChannel>> dispatchedFailing(String channel) {
        return withConnection(c -> {
            Statement s = c.createStatement(DISPATCHED_FAILING_SQL);
            s.bind("$1", channel);
            return Flux.from(s.execute())
                    .flatMap(r -> r.map((row, m) -> Optional.of(failing(row))))
                    .next()
                    .defaultIfEmpty(Optional.empty());
        });
    }

    @Override
    public Mono<Void> closeFailing(String channel, String incidentId) {
        return withConnection(c -> {
            Statement s = c.createStatement("DELETE FROM failing_channels WHERE channel = $1 AND incident_id = $2");
            s.bind("$1", channel).bind("$2", incidentId);
            return Flux.from(s.execute()).flatMap(r -> r.getRowsUpdated()).then();
        });
    }

    private static FailingChannel failing(Row row) {
        String[] recipients = row.get("recipients", String[].class);
        return new FailingChannel(
                row.get("channel", String.class),
                row.get("incident_id", String.class),
                row.get("first_seen", Long.class),
                recipients == null ? List.of() : List.of(recipients));
    }

    private <T> Mono<T> withConnection(Function<Connection, Mono<T>> work) {
        return Mono.usingWhen(Mono.from(db.create()), work, c -> Mono.from(c.close()));
    }

    private Mono<List<Claim>> claimBatch(List<ClaimRequest> batch) {
        int n = batch.size();
        String[] events = new String[n];
        String[] channels = new String[n];
        String[] tokens = new String[n];
        for (int i = 0; i < n; i++) {
            events[i] = batch.get(i).eventId;
            channels[i] = batch.get(i).channel;
            tokens[i] = batch.get(i).token;
        }
        return withConnection(c -> {
                    Statement s = c.createStatement(CLAIM_SQL);
                    s.bind("$1", events)
                            .bind("$2", channels)
                            .bind("$3", tokens)
                            .bind("$4", owner)
                            .bind("$5", lease)
                            .bind("$6", window);
                    return Flux.from(s.execute())
                            .flatMap(r -> r.map((row, m) -> new String[] {
                                row.get("event_id", String.class),
                                row.get("channel", String.class),
                                row.get("status", String.class),
                                row.get("token", String.class),
                                row.get("taken_over_from", String.class)
                            }))
                            .collectList();
                })
                .map(rows -> {
                    Map<String, String[]> byKey = new HashMap<>();
                    for (String[] r : rows) {
                        byKey.put(r[0] + "\u0000" + r[1], r);
                    }
                    List<Claim> out = new ArrayList<>(n);
                    for (ClaimRequest req : batch) {
                        String[] r = byKey.get(req.eventId + "\u0000" + req.channel);
                        if (r == null) {
                            throw new IllegalStateException("claim statement returned no row for a request");
                        }
                        Claim.Status st = req.token.equals(r[3])
                                ? Claim.Status.CLAIMED
                                : "claimed".equals(r[2]) ? Claim.Status.BUSY : Claim.Status.DUPLICATE;
                        boolean ours = st == Claim.Status.CLAIMED;
                        out.add(new Claim(req.eventId, req.channel, st, ours ? req.token : null, ours ? r[4] : null));
                    }
                    return out;
                });
    }

    private Mono<List<Boolean>> settleBatch(List<SettleRequest> batch) {
        int n = batch.size();
        String[] events = new String[n];
        String[] channels = new String[n];
        String[] tokens = new String[n];
        String[] statuses = new String[n];
        String[] incidentIds = new String[n];
        Integer[] numbers = new Integer[n];
        String[] outcomes = new String[n];
        Integer[] statusCodes = new Integer[n];
        Long[] latencies = new Long[n];
        String[] errors = new String[n];
        String[] fingerprints = new String[n];
        String[] states = new String[n];
        String[] groups = new String[n];
        for (int i = 0; i < n; i++) {
            SettleRequest r = batch.get(i);
            groups[i] = r.attempt.groupId();
            events[i] = r.claim.eventId();
            channels[i] = r.claim.channel();
            tokens[i] = r.claim.token();
            statuses[i] = switch (r.settlement) {
                case DELIVERED -> "delivered";
                case DEAD -> "dead";
                case RELEASED -> "released";
            };
            incidentIds[i] = r.attempt.incidentId();
            numbers[i] = r.attempt.number();
            outcomes[i] = r.attempt.outcome();
            statusCodes[i] = r.attempt.httpStatus();
            latencies[i] = r.attempt.latencyMs();
            errors[i] = r.attempt.error() == null ? null : truncate(r.attempt.error(), 2000);
            fingerprints[i] = r.attempt.fingerprint();
            states[i] = r.attempt.state() == null ? null : r.attempt.state().wire();
        }
        return withConnection(c -> {
                    Statement s = c.createStatement(SETTLE_SQL);
                    s.bind("$1", events)
                            .bind("$2", channels)
                            .bind("$3", tokens)
                            .bind("$4", statuses)
                            .bind("$5", incidentIds)
                            .bind("$6", numbers)
                            .bind("$7", outcomes)
                            .bind("$8", statusCodes)
                            .bind("$9", latencies)
                            .bind("$10", errors)
                            .bind("$11", fingerprints)
                            .bind("$12", states)
                            .bind("$13", groups);
                    return Flux.from(s.execute())
                            .flatMap(r -> r.map((row, m) -> row.get("channel", String.class)))
                            .collect(Collectors.toSet());
                })
                .map(failing -> {
                    List<Boolean> out = new ArrayList<>(n);
                    for (SettleRequest r : batch) {
                        out.add(r.settlement == Settlement.DELIVERED && failing.contains(r.claim.channel()));
                    }
                    return out;
                });
    }

    private Mono<List<Boolean>> incidentBatch(List<AlertEvent> batch) {
        int n = batch.size();
        String[] ids = new String[n];
        String[] fps = new String[n];
        String[] services = new String[n];
        String[] severities = new String[n];
        String[] states = new String[n];
        Long[] firstSeen = new Long[n];
        Long[] lastSeen = new Long[n];
        Integer[] occurrences = new Integer[n];
        Integer[] silenced = new Integer[n];
        String[] sources = new String[n];
        for (int i = 0; i < n; i++) {
            AlertEvent e = batch.get(i);
            ids[i] = e.incidentId();
            fps[i] = e.fingerprint();
            services[i] = e.service();
            severities[i] = e.severity().wire();
            states[i] = e.state().wire();
            firstSeen[i] = e.firstSeen();
            lastSeen[i] = e.lastSeen();
            occurrences[i] = e.occurrences();
            silenced[i] = e.silenced() ? 1 : 0;
            sources[i] = e.source().wire();
        }
        return withConnection(c -> {
            Statement s = c.createStatement(INCIDENT_SQL);
            s.bind("$1", ids)
                    .bind("$2", fps)
                    .bind("$3", services)
                    .bind("$4", severities)
                    .bind("$5", states)
                    .bind("$6", firstSeen)
                    .bind("$7", lastSeen)
                    .bind("$8", occurrences)
                    .bind("$9", silenced)
                    .bind("$10", sources);
            return Flux.from(s.execute()).flatMap(r -> r.getRowsUpdated()).then(Mono.just(List.<Boolean>of()));
        });
    }

    private static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }

    private record ClaimRequest(String eventId, String channel, String token) {}

    private record SettleRequest(Claim claim, Attempt attempt, Settlement settlement) {}
}
