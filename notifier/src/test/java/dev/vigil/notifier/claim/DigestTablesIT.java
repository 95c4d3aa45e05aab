package dev.vigil.notifier.claim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.embedded.junit.WithPostgres;
import dev.vigil.embedded.postgres.PostgresDatabase;
import dev.vigil.notifier.digest.DigestData;
import dev.vigil.notifier.digest.DigestStore.DayState;
import dev.vigil.notifier.digest.IncidentRow;
import dev.vigil.notifier.support.TestEvents;
import dev.vigil.notifier.support.Wiring;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.Severity;
import io.r2dbc.spi.ConnectionFactory;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.core.publisher.Flux;

/** The digest's tables on PostgreSQL: a day's claim goes to exactly one instance, and the window's reads. */
@WithPostgres
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DigestTablesIT {
    ConnectionFactory db;
    PostgresDatabase pg;
    DigestTables tables;

    @BeforeAll
    void migrate() {
        Migrations.run(pg.jdbcUrl(), pg.user(), pg.password()).block(Duration.ofSeconds(60));
        tables = new DigestTables(db);
    }

    @Test
    void aDayIsClaimedByOneOfManyInstancesAndSentOnce() {
        LocalDate day = LocalDate.of(2031, 1, 10);
        assertThat(tables.claim(day, "a", Duration.ofMinutes(5)).block()).isEqualTo(DayState.NOT_OWED);

        tables.expect(day).block();
        tables.expect(day).block(); // idempotent
        List<DayState> race = Flux.range(0, 8)
                .flatMap(i -> tables.claim(day, "instance-" + i, Duration.ofMinutes(5)))
                .collectList()
                .block();
        assertThat(race).containsOnly(DayState.CLAIMED, DayState.HELD);
        assertThat(race).filteredOn(s -> s == DayState.CLAIMED).hasSize(1);
        String owner = (String) Wiring.rows(db, "SELECT owner FROM digests WHERE day = $1", day)
                .get(0)
                .get("owner");
        // the holder may claim again (a retry after a failure of its own); nobody else may
        assertThat(tables.claim(day, owner, Duration.ofMinutes(5)).block()).isEqualTo(DayState.CLAIMED);
        assertThat(tables.claim(day, "late", Duration.ofMinutes(5)).block()).isEqualTo(DayState.HELD);

        tables.markSent(day, List.of("slack")).block();
        assertThat(tables.claim(day, owner, Duration.ofMinutes(5)).block()).isEqualTo(DayState.SENT);
        assertThat(tables.claim(day, "late", Duration.ofMinutes(5)).block()).isEqualTo(DayState.SENT);
    }

    @Test
    void aLeaseThatRanOutLetsAnotherInstanceTakeTheDay() {
        LocalDate day = LocalDate.of(2031, 1, 11);
        tables.expect(day).block();
        assertThat(tables.claim(day, "dead", Duration.ofMillis(1)).block()).isEqualTo(DayState.CLAIMED);
        Wiring.rows(db, "SELECT pg_sleep(0.05)");
        assertThat(tables.claim(day, "alive", Duration.ofMinutes(5)).block()).isEqualTo(DayState.CLAIMED);
    }

    @Test
    void readsTheWindowsIncidentsFailuresAndRecordedEvents() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String suffix = Long.toString(System.nanoTime(), 36);
        String fp = "monitor/window-" + suffix;
        Wiring.rows(
                db,
                "INSERT INTO incidents (incident_id, fingerprint, service, severity, state, first_seen, last_seen,"
                        + " occurrences) VALUES ($1, $2, 'window', 'critical', 'opened', now() - interval '2 hours',"
                        + " now(), 1), ($3, $2, 'window', 'critical', 'resolved', now() - interval '30 hours',"
                        + " now() - interval '29 hours', 1)",
                fp + "@1",
                fp,
                fp + "@2");
        Wiring.rows(
                db, "UPDATE incidents SET updated_at = now() - interval '29 hours' WHERE incident_id = $1", fp + "@2");
        Wiring.rows(
                db,
                "INSERT INTO delivery_attempts (event_id, channel, attempt, outcome) VALUES"
                        + " ('e1', $1, 1, 'transient'), ('e1', $1, 2, 'permanent'), ('e2', $1, 1, 'delivered')",
                "ch-" + suffix);
        AlertEvent info = TestEvents.opened("app/shop/deploy-" + suffix, Severity.INFO);
        tables.record(info, "daily").block();
        tables.record(info, "daily").block(); // a redelivery records nothing more

        DigestData data = tables.read(now.minus(Duration.ofHours(24)), now.plusSeconds(60))
                .block();

        assertThat(data.incidents())
                .filteredOn(i -> i.fingerprint().equals(fp))
                .singleElement()
                .satisfies(i -> {
                    assertThat(i.open()).isTrue();
                    assertThat(i.acknowledged()).isFalse();
                });
        assertThat(data.failures()).contains(new DigestData.ChannelFailures("ch-" + suffix, 2, 0));
        assertThat(data.recorded())
                .filteredOn(g -> g.fingerprint().equals(info.fingerprint()))
                .singleElement()
                .satisfies(g -> {
                    assertThat(g.events()).isEqualTo(1);
                    assertThat(g.lastSummary()).isEqualTo(info.summary());
                    assertThat(g.service()).isEqualTo(info.service());
                });
        assertThat(data.incidents()).extracting(IncidentRow::incidentId).doesNotContain(fp + "@2");
    }
}
