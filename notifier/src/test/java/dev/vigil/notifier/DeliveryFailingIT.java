package dev.vigil.notifier;

import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.vigil.embedded.junit.WithPostgres;
import dev.vigil.embedded.postgres.PostgresDatabase;
import dev.vigil.notifier.channel.HttpSender;
import dev.vigil.notifier.channel.betterstack.BetterStackNotifier;
import dev.vigil.notifier.claim.ClaimStore;
import dev.vigil.notifier.claim.Migrations;
import dev.vigil.notifier.core.ChannelResult;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Dispatcher;
import dev.vigil.notifier.core.EventResult;
import dev.vigil.notifier.core.FinalOutcome;
import dev.vigil.notifier.core.Notifier;
import dev.vigil.notifier.support.FakeVendor;
import dev.vigil.notifier.support.FakeVendor.Reply;
import dev.vigil.notifier.support.RecordingEscalations;
import dev.vigil.notifier.support.Wiring;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import io.r2dbc.spi.ConnectionFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The notifier's own delivery-failing alert ends: the open alert of each channel lives in PostgreSQL, so the
 * channel's next successful delivery resolves it on any instance, also one started after the failure, with the
 * incident id BetterStack opened it under. The alerts topic is played by hand: what one notifier raises, the test
 * dispatches.
 */
@WithPostgres
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DeliveryFailingIT {
    private static final String FAILING = "notifier/delivery-failing/slack";
    ConnectionFactory db;
    PostgresDatabase pg;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final List<String> chat = new CopyOnWriteArrayList<>();
    private final AtomicBoolean slackDown = new AtomicBoolean();
    private FakeVendor betterstack;

    @BeforeAll
    void migrate() {
        Migrations.run(pg.jdbcUrl(), pg.user(), pg.password()).block(Duration.ofSeconds(60));
    }

    @BeforeEach
    void vendor() {
        chat.clear();
        slackDown.set(false);
        betterstack = new FakeVendor()
                .respond(r -> r.path().endsWith("/resolve")
                        ? Reply.json(200, "{}")
                        : Reply.json(
                                201, "{\"data\":{\"id\":\"bs-" + UUID.randomUUID() + "\",\"type\":\"incident\"}}"));
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        closeables.clear();
        betterstack.close();
        Wiring.rows(db, "DELETE FROM failing_channels");
    }

    /** A notifier as a fresh process would build it: its own store, nothing in memory. */
    private Dispatcher notifier(RecordingEscalations escalations) {
        HttpSender http = new HttpSender("betterstack", 2, Duration.ofSeconds(5));
        closeables.add(http);
        Map<String, Notifier> notifiers = new LinkedHashMap<>();
        notifiers.put("betterstack", new BetterStackNotifier(betterstack.uri("/"), "tok", http, Clock.systemUTC()));
        for (String ch : List.of("slack", "discord", "log")) {
            notifiers.put(ch, n -> {
                chat.add(ch + ":" + n.event().eventId());
                return Mono.just(
                        ch.equals("slack") && slackDown.get()
                                ? new DeliveryOutcome.Permanent("slack answered HTTP 404", 404)
                                : new DeliveryOutcome.Delivered(200, null));
            });
        }
        ClaimStore store =
                new ClaimStore(db, Duration.ofHours(1), Duration.ofMinutes(1), "it-" + UUID.randomUUID(), 64, 2);
        return Wiring.dispatcher(Wiring.standardRoutes(), store, escalations, notifiers, closeables);
    }

    private static AlertEvent page(Severity severity) {
        return opened("monitor/page-" + UUID.randomUUID().toString().substring(0, 8), severity);
    }

    private static EventResult dispatch(Dispatcher d, AlertEvent e) {
        return d.dispatch(e).block(Duration.ofSeconds(30));
    }

    private List<Map<String, Object>> failingRows() {
        return Wiring.rows(db, "SELECT channel, incident_id FROM failing_channels");
    }

    @Test
    void aChannelFailingPermanentlyIsResolvedOnItsNextSuccessfulDeliveryAlsoAfterARestart() {
        RecordingEscalations before = new RecordingEscalations();
        Dispatcher first = notifier(before);
        slackDown.set(true);
        assertThat(dispatch(first, page(Severity.CRITICAL)).channels())
                .extracting(ChannelResult::outcome)
                .containsExactly(FinalOutcome.DELIVERED, FinalOutcome.DEAD_LETTERED, FinalOutcome.DELIVERED);
        AlertEvent failing = before.raised.get(0);
        assertThat(before.raised).singleElement().satisfies(a -> {
            assertThat(a.eventId()).isEqualTo(FAILING + "/opened");
            assertThat(a.channels()).containsExactly("betterstack", "discord");
        });
        assertThat(failingRows()).singleElement().satisfies(r -> assertThat(r)
                .containsEntry("channel", "slack")
                .containsEntry("incident_id", failing.incidentId()));
        dispatch(first, failing);
        List<FakeVendor.Request> created = betterstack.requests.stream()
                .filter(r -> r.path().equals("/api/v2/incidents") && r.body().contains(FAILING))
                .toList();
        assertThat(created).hasSize(1);
        assertThat(chat).contains("discord:" + failing.eventId());

        // a new process: it knows of the failing alert only through PostgreSQL
        slackDown.set(false);
        RecordingEscalations after = new RecordingEscalations();
        Dispatcher second = notifier(after);
        dispatch(second, page(Severity.WARNING));
        AlertEvent resolved = after.raised.get(0);
        assertThat(after.raised).singleElement().satisfies(a -> {
            assertThat(a.state()).isEqualTo(AlertState.RESOLVED);
            assertThat(a.eventId()).isEqualTo(FAILING + "/resolved");
            assertThat(a.incidentId()).isEqualTo(failing.incidentId());
            assertThat(a.channels()).containsExactly("betterstack", "discord");
        });
        assertThat(failingRows()).isEmpty();
        assertThat(dispatch(second, resolved).channels())
                .extracting(ChannelResult::channel, ChannelResult::outcome)
                .containsExactly(
                        tuple("betterstack", FinalOutcome.DELIVERED), tuple("discord", FinalOutcome.DELIVERED));
        // BetterStack resolves the very incident it opened for the failure
        assertThat(betterstack.requests("/api/v2/incidents/")).singleElement().satisfies(r -> assertThat(r.path())
                .isEqualTo("/api/v2/incidents/" + vendorId(failing) + "/resolve"));
        assertThat(chat).contains("discord:" + resolved.eventId()).doesNotContain("slack:" + resolved.eventId());

        dispatch(second, page(Severity.WARNING)); // a second success: nothing is open any more
        assertThat(after.raised).hasSize(1);
    }

    private String vendorId(AlertEvent e) {
        return (String) Wiring.rows(
                        db,
                        "SELECT vendor_ids ->> 'betterstack' AS id FROM incidents WHERE incident_id = $1"
                                + " AND fingerprint = $2",
                        e.incidentId(),
                        e.fingerprint())
                .get(0)
                .get("id");
    }

    @Test
    void twoInstancesFailingTogetherRaiseOneIncident() {
        slackDown.set(true);
        RecordingEscalations a = new RecordingEscalations();
        RecordingEscalations b = new RecordingEscalations();
        Dispatcher one = notifier(a);
        Dispatcher two = notifier(b);
        Flux.range(0, 16)
                .flatMap(i -> (i % 2 == 0 ? one : two).dispatch(page(Severity.WARNING)), 16)
                .collectList()
                .block(Duration.ofSeconds(60));
        List<AlertEvent> raised = new ArrayList<>(a.raised);
        raised.addAll(b.raised);
        assertThat(raised).hasSize(16).allSatisfy(e -> assertThat(e.eventId()).isEqualTo(FAILING + "/opened"));
        assertThat(raised)
                .extracting(AlertEvent::incidentId)
                .containsOnly(raised.get(0).incidentId());
        assertThat(failingRows()).singleElement().satisfies(r -> assertThat(r)
                .containsEntry("incident_id", raised.get(0).incidentId()));
    }
}
