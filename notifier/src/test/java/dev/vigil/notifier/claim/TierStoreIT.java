package dev.vigil.notifier.claim;

import static dev.vigil.notifier.support.TestEvents.T0;
import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.embedded.junit.WithPostgres;
import dev.vigil.embedded.postgres.PostgresDatabase;
import dev.vigil.notifier.core.DueTier;
import dev.vigil.notifier.core.Tier;
import dev.vigil.notifier.core.TierLog;
import dev.vigil.notifier.support.Wiring;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.Severity;
import io.r2dbc.spi.ConnectionFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

/** Escalation tiers in a real PostgreSQL: scheduling once, claiming by one instance at a time, ending for good. */
@WithPostgres
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TierStoreIT {
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Instant OPENED = Instant.ofEpochMilli(T0 + 60_000);
    private static final List<Tier> CLIMB = List.of(
            new Tier(2, Duration.ofMinutes(10), List.of("pagerduty")),
            new Tier(3, Duration.ofMinutes(30), List.of("lead-mail", "sms-bridge")));

    ConnectionFactory db;
    PostgresDatabase pg;

    @BeforeAll
    void migrate() {
        Migrations.run(pg.jdbcUrl(), pg.user(), pg.password()).block(Duration.ofSeconds(60));
    }

    /** A page of a fingerprint no other test uses, so the tests share the database without seeing each other. */
    private static AlertEvent page() {
        return opened("monitor/tiers-" + UUID.randomUUID().toString().substring(0, 8), Severity.CRITICAL);
    }

    private static java.util.function.Predicate<String> only(AlertEvent page) {
        return page.fingerprint()::equals;
    }

    @Test
    void aClimbIsScheduledOnceAndComesDueTierByTier() {
        TierStore a = new TierStore(db, "a");
        AlertEvent page = page();
        a.schedule(page, CLIMB, OPENED).block();
        // a redelivered page, or a reminder, changes nothing
        a.schedule(page, CLIMB, OPENED.plusSeconds(600)).block();
        List<TierLog.TierState> states =
                a.tiers(page.incidentId(), page.fingerprint()).block();
        assertThat(states)
                .extracting(TierLog.TierState::tier, TierLog.TierState::state, TierLog.TierState::dueAt)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                2, "pending", OPENED.plusSeconds(600).toEpochMilli()),
                        org.assertj.core.groups.Tuple.tuple(
                                3, "pending", OPENED.plusSeconds(1800).toEpochMilli()));
        assertThat(states.get(1).channels()).containsExactly("lead-mail", "sms-bridge");

        assertThat(a.claimDue(OPENED.plusSeconds(599), LEASE, 10, only(page))
                        .collectList()
                        .block())
                .isEmpty();
        List<DueTier> due = a.claimDue(OPENED.plusSeconds(600), LEASE, 10, only(page))
                .collectList()
                .block();
        assertThat(due).singleElement().satisfies(t -> {
            assertThat(t.tier()).isEqualTo(2);
            assertThat(t.tiers()).isEqualTo(3);
            assertThat(t.channels()).containsExactly("pagerduty");
            assertThat(t.page()).isEqualTo(page);
            assertThat(t.dueAt()).isEqualTo(OPENED.plusSeconds(600));
        });
        assertThat(a.pending(due.get(0)).block()).isTrue();
        a.fired(due.get(0), OPENED.plusSeconds(601)).block();
        assertThat(a.pending(due.get(0)).block()).isFalse();
        assertThat(a.firedChannels(page.incidentId(), page.fingerprint()).block())
                .containsExactly("pagerduty");
        assertThat(a.claimDue(OPENED.plusSeconds(1000), LEASE, 10, only(page))
                        .collectList()
                        .block())
                .as("fired: never again")
                .isEmpty();
        assertThat(Wiring.rows(
                        db,
                        "SELECT page FROM escalation_tiers WHERE fingerprint = $1 AND tier = 2",
                        page.fingerprint()))
                .singleElement()
                .satisfies(r -> assertThat(r.get("page"))
                        .as("the page is not kept once fired")
                        .isNull());
    }

    @Test
    void aClaimIsOneInstancesUntilItsLeaseRunsOut() {
        TierStore a = new TierStore(db, "a");
        TierStore b = new TierStore(db, "b");
        AlertEvent page = page();
        a.schedule(page, CLIMB, OPENED).block();
        Instant due = OPENED.plusSeconds(600);
        DueTier claimed = a.claimDue(due, LEASE, 10, only(page)).blockFirst();
        assertThat(claimed).isNotNull();
        assertThat(b.claimDue(due.plusSeconds(29), LEASE, 10, only(page))
                        .collectList()
                        .block())
                .isEmpty();
        // a died: once its lease has run out, b takes the tier, and a may no longer fire it
        DueTier taken = b.claimDue(due.plus(LEASE), LEASE, 10, only(page)).blockFirst();
        assertThat(taken).isNotNull();
        assertThat(b.pending(taken).block()).isTrue();
        assertThat(a.pending(claimed).block()).isFalse();
    }

    @Test
    void anInstanceClaimsOnlyTheFingerprintsItOwns() {
        TierStore a = new TierStore(db, "a");
        AlertEvent mine = page();
        AlertEvent theirs = page();
        a.schedule(mine, CLIMB, OPENED).block();
        a.schedule(theirs, CLIMB, OPENED).block();
        assertThat(a.claimDue(OPENED.plusSeconds(600), LEASE, 100, only(mine))
                        .collectList()
                        .block())
                .extracting(DueTier::fingerprint)
                .containsExactly(mine.fingerprint());
    }

    @Test
    void instancesClaimingTogetherTakeEachDueTierOnce() {
        List<AlertEvent> pages =
                java.util.stream.IntStream.range(0, 40).mapToObj(i -> page()).toList();
        java.util.Set<String> fingerprints =
                pages.stream().map(AlertEvent::fingerprint).collect(java.util.stream.Collectors.toSet());
        TierStore writer = new TierStore(db, "writer");
        Flux.fromIterable(pages).flatMap(p -> writer.schedule(p, CLIMB, OPENED)).blockLast();
        Instant due = OPENED.plusSeconds(600);
        List<DueTier> all = Flux.range(0, 4)
                .flatMap(i -> new TierStore(db, "instance-" + i)
                        .claimDue(due, LEASE, 7, fingerprints::contains)
                        .repeat(6)
                        .subscribeOn(Schedulers.boundedElastic()))
                .collectList()
                .block(Duration.ofSeconds(60));
        assertThat(all).hasSize(40);
        assertThat(all.stream().map(DueTier::fingerprint)).doesNotHaveDuplicates();
    }

    @Test
    void anAcknowledgementCancelsWhatIsStillPendingAndLeavesWhatFired() {
        TierStore a = new TierStore(db, "a");
        AlertEvent page = page();
        a.schedule(page, CLIMB, OPENED).block();
        DueTier two = a.claimDue(OPENED.plusSeconds(600), LEASE, 10, only(page)).blockFirst();
        a.fired(two, OPENED.plusSeconds(600)).block();
        assertThat(a.cancel(page.incidentId(), page.fingerprint(), "acknowledged")
                        .block())
                .isEqualTo(1);
        assertThat(a.cancel(page.incidentId(), page.fingerprint(), "resolved").block())
                .isZero();
        assertThat(a.tiers(page.incidentId(), page.fingerprint()).block())
                .extracting(TierLog.TierState::state, TierLog.TierState::cancelledBy)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("fired", null),
                        org.assertj.core.groups.Tuple.tuple("cancelled", "acknowledged"));
        assertThat(a.claimDue(OPENED.plusSeconds(7200), LEASE, 10, only(page))
                        .collectList()
                        .block())
                .isEmpty();
        // a tier claimed before the cancellation is no longer pending when its page would go out
        AlertEvent next = page();
        a.schedule(next, CLIMB, OPENED).block();
        DueTier racing =
                a.claimDue(OPENED.plusSeconds(600), LEASE, 10, only(next)).blockFirst();
        a.cancel(next.incidentId(), next.fingerprint(), "resolved").block();
        assertThat(a.pending(racing).block()).isFalse();
    }

    @Test
    void aDueTierOfAnIncidentAlreadyResolvedEndsInsteadOfPaging() {
        TierStore a = new TierStore(db, "a");
        AlertEvent page = page();
        a.schedule(page, CLIMB, OPENED).block();
        // the resolution was recorded while no instance cancelled climbs
        Wiring.rows(
                db,
                "INSERT INTO incidents (incident_id, fingerprint, service, severity, state, first_seen, last_seen,"
                        + " occurrences) VALUES ($1, $2, 'svc', 'critical', 'resolved', now(), now(), 1)"
                        + " RETURNING incident_id",
                page.incidentId(),
                page.fingerprint());
        assertThat(a.claimDue(OPENED.plusSeconds(600), LEASE, 10, only(page))
                        .collectList()
                        .block())
                .isEmpty();
        assertThat(a.tiers(page.incidentId(), page.fingerprint()).block())
                .extracting(TierLog.TierState::state, TierLog.TierState::cancelledBy)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("cancelled", "resolved"),
                        org.assertj.core.groups.Tuple.tuple("pending", null));
    }

    @Test
    void theSameIncidentIdUnderAnotherFingerprintIsAnotherClimb() {
        TierStore a = new TierStore(db, "a");
        AlertEvent page = page();
        AlertEvent borrowed = dev.vigil.notifier.support.TestEvents.withSource(
                new AlertEvent(
                        1,
                        null,
                        "app/x/" + page.fingerprint(),
                        page.incidentId(),
                        dev.vigil.schemas.contract.AlertState.OPENED,
                        Severity.CRITICAL,
                        "svc",
                        null,
                        "s",
                        java.util.Map.of(),
                        java.util.Map.of(),
                        1,
                        T0,
                        T0,
                        dev.vigil.schemas.contract.AlertSource.APP,
                        false,
                        List.of()),
                dev.vigil.schemas.contract.AlertSource.APP);
        a.schedule(page, CLIMB, OPENED).block();
        a.schedule(borrowed, CLIMB, OPENED).block();
        assertThat(a.cancel(borrowed.incidentId(), borrowed.fingerprint(), "acknowledged")
                        .block())
                .isEqualTo(2);
        assertThat(a.tiers(page.incidentId(), page.fingerprint()).block())
                .extracting(TierLog.TierState::state)
                .containsOnly("pending");
    }
}
