package dev.vigil.notifier;

import static dev.vigil.notifier.support.TestEvents.event;
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
import dev.vigil.notifier.support.TestEvents;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.core.publisher.Mono;

/**
 * A silence never eats a resolution, through the dispatcher, the real claim store and the BetterStack adapter:
 * where an incident's page was delivered is answered from PostgreSQL, so a notifier started after the page (a
 * restart, another instance) still sends the resolution there.
 */
@WithPostgres
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SilencedResolutionIT {
    ConnectionFactory db;
    PostgresDatabase pg;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final List<String> chat = new CopyOnWriteArrayList<>();
    private FakeVendor betterstack;

    @BeforeAll
    void migrate() {
        Migrations.run(pg.jdbcUrl(), pg.user(), pg.password()).block(Duration.ofSeconds(60));
    }

    @BeforeEach
    void vendor() {
        chat.clear();
        betterstack = new FakeVendor()
                .respond(r -> r.path().endsWith("/resolve")
                        ? Reply.json(200, "{}")
                        : Reply.json(201, "{\"data\":{\"id\":\"bs-777\",\"type\":\"incident\"}}"));
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        closeables.clear();
        betterstack.close();
    }

    /** A notifier as a fresh process would build it: its own store, nothing in memory. */
    private Dispatcher notifier() {
        HttpSender http = new HttpSender("betterstack", 2, Duration.ofSeconds(5));
        closeables.add(http);
        Map<String, Notifier> notifiers = new LinkedHashMap<>();
        notifiers.put("betterstack", new BetterStackNotifier(betterstack.uri("/"), "tok", http, Clock.systemUTC()));
        for (String ch : List.of("slack", "discord", "log")) {
            notifiers.put(ch, n -> {
                chat.add(ch + ":" + n.event().eventId());
                return Mono.just(new DeliveryOutcome.Delivered(200, null));
            });
        }
        ClaimStore store =
                new ClaimStore(db, Duration.ofHours(1), Duration.ofMinutes(1), "it-" + UUID.randomUUID(), 64, 2);
        return Wiring.dispatcher(Wiring.standardRoutes(), store, new RecordingEscalations(), notifiers, closeables);
    }

    private static String fingerprint() {
        return "monitor/quiet-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static AlertEvent silenced(AlertEvent e) {
        return TestEvents.with(e, e.service(), e.attributes(), e.channels(), true);
    }

    private static EventResult dispatch(Dispatcher d, AlertEvent e) {
        return d.dispatch(e).block(Duration.ofSeconds(30));
    }

    private List<Map<String, Object>> attempts(String eventId) {
        return Wiring.rows(
                db, "SELECT channel, outcome FROM delivery_attempts WHERE event_id = $1 ORDER BY channel", eventId);
    }

    @Test
    void aSilenceAddedAfterThePageStillResolvesBetterStackAndTheChatChannelsAfterARestart() {
        String fp = fingerprint();
        AlertEvent opened = opened(fp, Severity.CRITICAL);
        dispatch(notifier(), opened);
        assertThat(betterstack.requests).singleElement().satisfies(r -> assertThat(r.path())
                .isEqualTo("/api/v2/incidents"));

        AlertEvent resolved = silenced(event(fp, AlertState.RESOLVED, Severity.CRITICAL, 2));
        EventResult r = dispatch(notifier(), resolved);

        assertThat(r.channels()).extracting(ChannelResult::outcome).containsOnly(FinalOutcome.DELIVERED);
        assertThat(betterstack.requests).hasSize(2);
        assertThat(betterstack.requests.get(1).path()).isEqualTo("/api/v2/incidents/bs-777/resolve");
        assertThat(chat)
                .containsExactlyInAnyOrder(
                        "slack:" + opened.eventId(),
                        "discord:" + opened.eventId(),
                        "slack:" + resolved.eventId(),
                        "discord:" + resolved.eventId());
        assertThat(attempts(resolved.eventId()))
                .extracting(m -> m.get("channel"), m -> m.get("outcome"))
                .containsExactly(
                        tuple("betterstack", "delivered"), tuple("discord", "delivered"), tuple("slack", "delivered"));
    }

    @Test
    void aSilencedResolutionGoesOnlyWhereThePageWasDeliveredAndIsRecordedSilencedElsewhere() {
        String fp = fingerprint();
        AlertEvent opened = opened(fp, Severity.WARNING);
        dispatch(notifier(), opened);
        AlertEvent resolved = silenced(event(fp, AlertState.RESOLVED, Severity.CRITICAL, 2));
        EventResult r = dispatch(notifier(), resolved);

        assertThat(r.channels())
                .extracting(ChannelResult::channel, ChannelResult::outcome)
                .containsExactly(
                        tuple("slack", FinalOutcome.DELIVERED),
                        tuple("discord", FinalOutcome.DELIVERED),
                        tuple("betterstack", FinalOutcome.SILENCED));
        assertThat(betterstack.requests).isEmpty();
        assertThat(chat).contains("slack:" + resolved.eventId(), "discord:" + resolved.eventId());
        assertThat(attempts(resolved.eventId()))
                .extracting(m -> m.get("channel"), m -> m.get("outcome"))
                .containsExactly(
                        tuple("betterstack", "silenced"), tuple("discord", "delivered"), tuple("slack", "delivered"));
    }

    @Test
    void aSilencedResolutionOfAnIncidentNeverPagedIsOnlyRecorded() {
        String fp = fingerprint();
        AlertEvent opened = silenced(opened(fp, Severity.CRITICAL));
        AlertEvent resolved = silenced(event(fp, AlertState.RESOLVED, Severity.CRITICAL, 2));
        Dispatcher d = notifier();
        dispatch(d, opened);
        EventResult r = dispatch(d, resolved);

        assertThat(r.channels()).extracting(ChannelResult::outcome).containsOnly(FinalOutcome.SILENCED);
        assertThat(betterstack.requests).isEmpty();
        assertThat(chat).isEmpty();
        assertThat(attempts(resolved.eventId()))
                .extracting(m -> m.get("outcome"))
                .containsExactly("silenced", "silenced", "silenced");
    }

    @Test
    void aSilencedAppResolutionNamingAnotherFingerprintsIncidentReachesNone() {
        String fp = fingerprint();
        AlertEvent opened = opened(fp, Severity.CRITICAL);
        dispatch(notifier(), opened);
        AlertEvent forged = new AlertEvent(
                1,
                null,
                "app/demo/" + fp,
                opened.incidentId(),
                AlertState.RESOLVED,
                Severity.CRITICAL,
                "demo",
                null,
                "all good",
                Map.of(),
                Map.of(),
                1,
                opened.firstSeen(),
                opened.lastSeen(),
                dev.vigil.schemas.contract.AlertSource.APP,
                true,
                List.of());
        EventResult r = dispatch(notifier(), forged);

        assertThat(r.channels()).extracting(ChannelResult::outcome).containsOnly(FinalOutcome.SILENCED);
        assertThat(betterstack.requests).hasSize(1);
        assertThat(chat).noneMatch(s -> s.endsWith(forged.eventId()));
    }
}
