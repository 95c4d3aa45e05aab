package dev.vigil.notifier.channel.betterstack;

import static dev.vigil.notifier.support.TestEvents.T0;
import static dev.vigil.notifier.support.TestEvents.event;
import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.embedded.junit.WithPostgres;
import dev.vigil.embedded.postgres.PostgresDatabase;
import dev.vigil.notifier.channel.HttpSender;
import dev.vigil.notifier.claim.ClaimStore;
import dev.vigil.notifier.claim.Migrations;
import dev.vigil.notifier.core.ChannelLane;
import dev.vigil.notifier.core.ChannelPipeline;
import dev.vigil.notifier.core.ChannelResult;
import dev.vigil.notifier.core.ClaimStage;
import dev.vigil.notifier.core.DeadLetterStage;
import dev.vigil.notifier.core.Dispatcher;
import dev.vigil.notifier.core.FinalOutcome;
import dev.vigil.notifier.core.RecordStage;
import dev.vigil.notifier.core.RetryPolicy;
import dev.vigil.notifier.core.Routes;
import dev.vigil.notifier.core.SendStage;
import dev.vigil.notifier.support.FakeVendor;
import dev.vigil.notifier.support.FakeVendor.Reply;
import dev.vigil.notifier.support.RecordingEscalations;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.r2dbc.spi.ConnectionFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * BetterStack resolves only incidents it opened, through the real dispatcher, claim store and adapter: a
 * {@code resolved} with no BetterStack incident behind it calls nothing, and an app's event cannot reach the
 * incident row (or the BetterStack incident) of a fingerprint outside its namespace.
 */
@WithPostgres
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BetterStackResolveIT {
    private static final String INCIDENT_ROW =
            "SELECT fingerprint, severity, state, first_seen, last_seen, occurrences,"
                    + " events, vendor_ids::text AS vendor_ids, updated_at FROM incidents WHERE incident_id = $1";
    ConnectionFactory db;
    PostgresDatabase pg;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private FakeVendor vendor;
    private Dispatcher dispatcher;

    @BeforeAll
    void migrate() {
        Migrations.run(pg.jdbcUrl(), pg.user(), pg.password()).block(Duration.ofSeconds(60));
    }

    @BeforeEach
    void wire() {
        vendor = new FakeVendor()
                .respond(r -> r.path().endsWith("/resolve") || r.path().endsWith("/acknowledge")
                        ? Reply.json(200, "{}")
                        : Reply.json(201, "{\"data\":{\"id\":\"bs-777\",\"type\":\"incident\"}}"));
        HttpSender http = new HttpSender("betterstack", 2, Duration.ofSeconds(5));
        closeables.add(http);
        Map<Severity, List<String>> d = new EnumMap<>(Severity.class);
        for (Severity s : Severity.values()) {
            d.put(s, List.of("betterstack"));
        }
        Routes routes = new Routes(List.of(), d, Set.of("betterstack"));
        ClaimStore store = new ClaimStore(db, Duration.ofHours(1), Duration.ofMinutes(1), "it", 64, 2);
        ChannelLane lane = new ChannelLane("betterstack", 0, 2, Schedulers.parallel());
        closeables.add(lane);
        Clock clock = Clock.systemUTC();
        RetryPolicy policy =
                new RetryPolicy(Duration.ofMillis(10), 2, Duration.ofMillis(100), Duration.ofSeconds(10), () -> 0.5);
        ChannelPipeline pipeline = new ChannelPipeline(
                "betterstack",
                new ClaimStage(store, Schedulers.parallel()),
                lane,
                new SendStage(
                        new BetterStackNotifier(vendor.uri("/"), "tok", http, clock),
                        Duration.ofSeconds(5),
                        Schedulers.parallel()),
                new RecordStage(store, Schedulers.parallel()),
                new DeadLetterStage(
                        new RecordingEscalations(), routes, store, "vigil.alerts", clock, Schedulers.parallel()),
                policy,
                clock,
                Schedulers.parallel(),
                Duration.ofMillis(50),
                new SimpleMeterRegistry());
        dispatcher = new Dispatcher(routes, Map.of("betterstack", pipeline), store, Schedulers.parallel());
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        closeables.clear();
        vendor.close();
    }

    private List<ChannelResult> dispatch(AlertEvent e) {
        return dispatcher.dispatch(e).block(Duration.ofSeconds(30)).channels();
    }

    private static String fingerprint() {
        return "monitor/bs-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** The app event ingest would build for {@code app/demo/<fp>}, with an incident id of the caller's choice. */
    private static AlertEvent appResolved(String fp, String incidentId) {
        return new AlertEvent(
                1,
                null,
                "app/demo/" + fp,
                incidentId,
                AlertState.RESOLVED,
                Severity.CRITICAL,
                "demo",
                null,
                "all good",
                Map.of(),
                Map.of(),
                1,
                T0,
                T0 + 600_000,
                AlertSource.APP,
                false,
                List.of());
    }

    @Test
    void aResolvedForAnIncidentBetterStackNeverOpenedCallsNothingAndStoresNoVendorId() {
        String fp = fingerprint();
        AlertEvent resolved = event(fp, AlertState.RESOLVED, Severity.CRITICAL, 2);
        assertThat(dispatch(resolved)).singleElement().satisfies(r -> assertThat(r.outcome())
                .isEqualTo(FinalOutcome.DELIVERED));
        assertThat(vendor.requests).isEmpty();
        assertThat(row("SELECT count(*) AS n FROM incidents WHERE vendor_ids <> '{}'::jsonb AND fingerprint = $1", fp))
                .containsEntry("n", 0L);
    }

    @Test
    void anAppResolvedCannotTouchTheIncidentOfTheFingerprintItsNameContains() {
        String fp = fingerprint();
        AlertEvent open = opened(fp, Severity.CRITICAL);
        dispatch(open);
        assertThat(vendor.requests).singleElement().satisfies(r -> assertThat(r.path())
                .isEqualTo("/api/v2/incidents"));
        Map<String, Object> before = row(INCIDENT_ROW, open.incidentId());
        assertThat(before).containsEntry("vendor_ids", "{\"betterstack\": \"bs-777\"}");

        // its own namespace: app/demo/<fp>@T0 is another incident, which BetterStack never opened
        AlertEvent own = appResolved(fp, null);
        assertThat(own.incidentId()).isEqualTo("app/demo/" + fp + "@" + T0);
        dispatch(own);
        // naming <fp>'s incident id outright: the row belongs to another fingerprint, so nothing matches
        dispatch(appResolved(fp, open.incidentId()));

        assertThat(vendor.requests).hasSize(1);
        assertThat(row(INCIDENT_ROW, open.incidentId())).isEqualTo(before);

        // the incident's own resolution still resolves it
        dispatch(event(fp, AlertState.RESOLVED, Severity.CRITICAL, 2));
        assertThat(vendor.requests).hasSize(2);
        assertThat(vendor.requests.get(1).path()).isEqualTo("/api/v2/incidents/bs-777/resolve");
        assertThat(row(INCIDENT_ROW, open.incidentId())).containsEntry("state", "resolved");
    }

    @Test
    void anAcknowledgementAcknowledgesTheIncidentBetterStackOpenedAndTheResolutionStillFollows() {
        String fp = fingerprint();
        AlertEvent open = opened(fp, Severity.CRITICAL);
        dispatch(open);
        Map<String, Object> before = row(INCIDENT_ROW, open.incidentId());
        AlertEvent ack = dev.vigil.notifier.support.TestEvents.acknowledged(open, "alice", T0 + 120_000);
        assertThat(dispatch(ack)).singleElement().satisfies(r -> assertThat(r.outcome())
                .isEqualTo(FinalOutcome.DELIVERED));
        assertThat(vendor.requests).hasSize(2);
        assertThat(vendor.requests.get(1).path()).isEqualTo("/api/v2/incidents/bs-777/acknowledge");
        assertThat(vendor.requests.get(1).body()).isEqualTo("{\"acknowledged_by\":\"alice\"}");
        // a notice is no occurrence: the incident row is left as the page wrote it
        assertThat(row(INCIDENT_ROW, open.incidentId())).isEqualTo(before);
        // and no page: the resolution is owed where the opened went, and still resolves
        assertThat(row("SELECT state FROM delivery_attempts WHERE event_id = $1", ack.eventId()))
                .containsEntry("state", "acknowledged");
        dispatch(event(fp, AlertState.RESOLVED, Severity.CRITICAL, 2));
        assertThat(vendor.requests).hasSize(3);
        assertThat(vendor.requests.get(2).path()).isEqualTo("/api/v2/incidents/bs-777/resolve");
    }

    @Test
    void anAcknowledgementOfAnIncidentNeverPagedCallsNothing() {
        String fp = fingerprint();
        AlertEvent open = dev.vigil.notifier.support.TestEvents.with(
                opened(fp, Severity.CRITICAL), "checkout-api", Map.of(), List.of(), true);
        dispatch(open);
        AlertEvent ack = dev.vigil.notifier.support.TestEvents.acknowledged(open, "alice", T0 + 120_000);
        assertThat(dispatch(ack)).singleElement().satisfies(r -> assertThat(r.outcome())
                .isEqualTo(FinalOutcome.SILENCED));
        assertThat(vendor.requests).isEmpty();
        assertThat(row("SELECT outcome, state FROM delivery_attempts WHERE event_id = $1", ack.eventId()))
                .containsEntry("outcome", "silenced")
                .containsEntry("state", "acknowledged");
    }

    private Map<String, Object> row(String sql, Object... binds) {
        return Mono.usingWhen(
                        Mono.from(db.create()),
                        c -> {
                            var s = c.createStatement(sql);
                            for (int i = 0; i < binds.length; i++) {
                                s.bind("$" + (i + 1), binds[i]);
                            }
                            return Flux.from(s.execute())
                                    .flatMap(r -> r.map((row, meta) -> {
                                        Map<String, Object> m = new HashMap<>();
                                        for (var col : meta.getColumnMetadatas()) {
                                            m.put(col.getName(), row.get(col.getName()));
                                        }
                                        return m;
                                    }))
                                    .next();
                        },
                        c -> Mono.from(c.close()))
                .block();
    }
}
