package dev.vigil.notifier.claim;

import static dev.vigil.notifier.support.TestEvents.event;
import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.embedded.junit.WithPostgres;
import dev.vigil.embedded.postgres.PostgresDatabase;
import dev.vigil.notifier.core.Attempt;
import dev.vigil.notifier.core.Claim;
import dev.vigil.notifier.core.DeliveryFailing;
import dev.vigil.notifier.core.FailingChannel;
import dev.vigil.notifier.core.Settlement;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import io.r2dbc.spi.ConnectionFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

@WithPostgres
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClaimStoreIT {
    ConnectionFactory db;
    PostgresDatabase pg;

    @BeforeAll
    void migrate() {
        assertThat(Migrations.run(pg.jdbcUrl(), pg.user(), pg.password()).block())
                .isEqualTo(MigrationsIT.LATEST);
        // idempotent, also when several instances race
        assertThat(Flux.range(0, 4)
                        .flatMap(i -> Migrations.run(pg.jdbcUrl(), pg.user(), pg.password()))
                        .collectList()
                        .block())
                .containsOnly(MigrationsIT.LATEST);
    }

    private ClaimStore store(Duration window, Duration lease, String owner) {
        return new ClaimStore(db, window, lease, owner, 256, 2);
    }

    private static String id() {
        return "evt-" + UUID.randomUUID();
    }

    private static Attempt attempt(String eventId, String channel, String outcome) {
        return new Attempt(eventId, "inc", "monitor/inc", AlertState.OPENED, channel, 1, outcome, 200, 12, null);
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
                                        Map<String, Object> m = new java.util.HashMap<>();
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

    @Test
    void claimThenBusyThenDuplicateAndFoldsAreCounted() {
        ClaimStore s = store(Duration.ofHours(1), Duration.ofMinutes(1), "a");
        String e = id();
        Claim c = s.claim(e, "slack").block();
        assertThat(c.status()).isEqualTo(Claim.Status.CLAIMED);
        assertThat(s.claim(e, "slack").block().status()).isEqualTo(Claim.Status.BUSY);
        assertThat(s.claim(e, "discord").block().status()).isEqualTo(Claim.Status.CLAIMED);
        s.settle(c, attempt(e, "slack", "delivered"), Settlement.DELIVERED).block();
        assertThat(s.claim(e, "slack").block().status()).isEqualTo(Claim.Status.DUPLICATE);
        assertThat(s.claim(e, "slack").block().status()).isEqualTo(Claim.Status.DUPLICATE);
        Map<String, Object> r =
                row("SELECT status, folded, attempts FROM claims WHERE event_id = $1 AND channel = 'slack'", e);
        assertThat(r)
                .containsEntry("status", "delivered")
                .containsEntry("folded", 2)
                .containsEntry("attempts", 1);
        assertThat(row("SELECT count(*) AS n, max(outcome) AS o FROM delivery_attempts WHERE event_id = $1", e))
                .containsEntry("n", 1L)
                .containsEntry("o", "delivered");
    }

    @Test
    void releaseLetsTheNextClaimSendAndAStaleTokenCannotSettle() {
        ClaimStore s = store(Duration.ofHours(1), Duration.ofMinutes(1), "a");
        String e = id();
        Claim first = s.claim(e, "slack").block();
        s.settle(first, attempt(e, "slack", "transient"), Settlement.RELEASED).block();
        Claim second = s.claim(e, "slack").block();
        assertThat(second.status()).isEqualTo(Claim.Status.CLAIMED);
        assertThat(second.token()).isNotEqualTo(first.token());
        // the first holder's late settlement does not touch the new claim
        s.settle(first, attempt(e, "slack", "delivered"), Settlement.DELIVERED).block();
        assertThat(row("SELECT status FROM claims WHERE event_id = $1", e)).containsEntry("status", "claimed");
        s.settle(second, attempt(e, "slack", "delivered"), Settlement.DELIVERED).block();
        assertThat(row("SELECT status, attempts FROM claims WHERE event_id = $1", e))
                .containsEntry("status", "delivered")
                .containsEntry("attempts", 2);
    }

    @Test
    void anExpiredLeaseCanBeTakenOverAndTheWindowReopensAfterItEnds() {
        ClaimStore s = store(Duration.ofMillis(300), Duration.ofMillis(200), "a");
        String e = id();
        assertThat(s.claim(e, "slack").block().status()).isEqualTo(Claim.Status.CLAIMED);
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> s.claim(e, "slack").block().status() == Claim.Status.CLAIMED);
        Claim c = s.claim(e, "discord").block();
        s.settle(c, attempt(e, "discord", "delivered"), Settlement.DELIVERED).block();
        assertThat(s.claim(e, "discord").block().status()).isEqualTo(Claim.Status.DUPLICATE);
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> s.claim(e, "discord").block().status() == Claim.Status.CLAIMED);
    }

    @Test
    void aClaimTakenFromAnExpiredLeaseNamesItsHolderAndNoOtherClaimDoes() {
        ClaimStore a = store(Duration.ofMillis(300), Duration.ofMillis(200), "notifier-a");
        ClaimStore b = store(Duration.ofMillis(300), Duration.ofMillis(200), "notifier-b");
        String e = id();
        Claim first = a.claim(e, "slack").block();
        assertThat(first.status()).isEqualTo(Claim.Status.CLAIMED);
        assertThat(first.takenOver()).as("a new row").isFalse();
        // notifier-a never settles, as when it died mid-send: once its lease ran out, b takes the claim over
        Claim taken = await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> b.claim(e, "slack").block(), c -> c.status() == Claim.Status.CLAIMED);
        assertThat(taken.takenOver()).isTrue();
        assertThat(taken.takenOverFrom()).isEqualTo("notifier-a");
        assertThat(row("SELECT owner, taken_over_from FROM claims WHERE event_id = $1", e))
                .containsEntry("owner", "notifier-b")
                .containsEntry("taken_over_from", "notifier-a");

        // released after a failed send and claimed again: an ordinary retry
        b.settle(taken, attempt(e, "slack", "transient"), Settlement.RELEASED).block();
        Claim retried = a.claim(e, "slack").block();
        assertThat(retried.status()).isEqualTo(Claim.Status.CLAIMED);
        assertThat(retried.takenOver()).isFalse();
        assertThat(row("SELECT taken_over_from FROM claims WHERE event_id = $1", e))
                .containsEntry("taken_over_from", null);

        // delivered, then claimable again once the dedupe window ended: no takeover either
        a.settle(retried, attempt(e, "slack", "delivered"), Settlement.DELIVERED)
                .block();
        Claim reopened = await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> b.claim(e, "slack").block(), c -> c.status() == Claim.Status.CLAIMED);
        assertThat(reopened.takenOver()).isFalse();
    }

    @Test
    void concurrentClaimsFromTwoInstancesGiveExactlyOneWinnerPerKey() throws Exception {
        ClaimStore a = store(Duration.ofHours(1), Duration.ofMinutes(1), "a");
        ClaimStore b = store(Duration.ofHours(1), Duration.ofMinutes(1), "b");
        List<String> events = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            events.add(id());
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Claim>> futures = new ArrayList<>();
        for (String e : events) {
            for (int k = 0; k < 4; k++) {
                ClaimStore s = k % 2 == 0 ? a : b;
                futures.add(pool.submit(() -> {
                    go.await();
                    return s.claim(e, "slack").block(Duration.ofSeconds(30));
                }));
            }
        }
        go.countDown();
        Map<String, Integer> winners = new java.util.HashMap<>();
        for (Future<Claim> f : futures) {
            Claim c = f.get();
            if (c.status() == Claim.Status.CLAIMED) {
                winners.merge(c.eventId(), 1, Integer::sum);
            } else {
                assertThat(c.status()).isEqualTo(Claim.Status.BUSY);
            }
        }
        pool.shutdown();
        assertThat(winners).hasSize(200);
        assertThat(winners.values()).containsOnly(1);
    }

    @Test
    void aBatchWithManyKeysAndRepeatedKeysResolvesEachRequest() {
        ClaimStore s = store(Duration.ofHours(1), Duration.ofMinutes(1), "a");
        String e = id();
        List<Claim> claims = Flux.range(0, 500)
                .flatMap(i -> s.claim(i % 100 == 0 ? e : e + "-" + i, "hook"), 500)
                .collectList()
                .block(Duration.ofSeconds(30));
        assertThat(claims).hasSize(500);
        assertThat(claims.stream().filter(c -> c.eventId().equals(e) && c.status() == Claim.Status.CLAIMED))
                .hasSize(1);
        assertThat(claims.stream().filter(c -> c.status() == Claim.Status.CLAIMED))
                .hasSize(496);
    }

    @Test
    void theNewestUnresolvedIncidentOfAFingerprintIsFound() {
        ClaimStore s = store(Duration.ofHours(1), Duration.ofMinutes(1), "a");
        String fp = "vigil/stall-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(s.openIncidentFirstSeen(fp).block()).isEmpty();
        AlertEvent old = new AlertEvent(
                1,
                fp + "@1000/opened",
                fp,
                fp + "@1000",
                AlertState.OPENED,
                Severity.WARNING,
                "vigil-notifier",
                "service",
                "stalled",
                Map.of(),
                Map.of(),
                1,
                1000L,
                1000L,
                dev.vigil.schemas.contract.AlertSource.APP,
                false,
                null);
        s.recordIncident(old).block();
        assertThat(s.openIncidentFirstSeen(fp).block()).hasValue(1000);
        s.recordIncident(new AlertEvent(
                        1,
                        fp + "@1000/resolved",
                        fp,
                        fp + "@1000",
                        AlertState.RESOLVED,
                        Severity.WARNING,
                        "vigil-notifier",
                        "service",
                        "passes",
                        Map.of(),
                        Map.of(),
                        1,
                        1000L,
                        2000L,
                        dev.vigil.schemas.contract.AlertSource.APP,
                        false,
                        null))
                .block();
        assertThat(s.openIncidentFirstSeen(fp).block()).isEmpty();
        assertThat(s.openIncident(fp).block()).isEmpty();
        AlertEvent next = event(fp, AlertState.OPENED, Severity.CRITICAL, 1);
        s.recordIncident(next).block();
        assertThat(s.openIncident(fp).block()).hasValueSatisfying(i -> {
            assertThat(i.incidentId()).isEqualTo(next.incidentId());
            assertThat(i.state()).isEqualTo("opened");
            assertThat(i.service()).isEqualTo(next.service());
        });
    }

    @Test
    void incidentsKeepFirstAndLastSeenOccurrencesAndVendorIds() {
        ClaimStore s = store(Duration.ofHours(1), Duration.ofMinutes(1), "a");
        String fp = "monitor/inc-" + UUID.randomUUID().toString().substring(0, 8);
        AlertEvent open = opened(fp, Severity.CRITICAL);
        AlertEvent reminder = event(fp, AlertState.REMINDER, Severity.CRITICAL, 4);
        s.recordIncident(open).block();
        s.saveVendorRef(open.incidentId(), fp, "betterstack", "bs-1").block();
        s.recordIncident(reminder).block();
        s.recordSilenced(
                        dev.vigil.notifier.support.TestEvents.with(reminder, "x", Map.of(), List.of(), true),
                        List.of("slack", "discord"))
                .block();
        assertThat(s.vendorRef(open.incidentId(), fp, "betterstack").block()).contains("bs-1");
        assertThat(s.vendorRef(open.incidentId(), fp, "slack").block()).isEmpty();
        assertThat(s.vendorRef("nope", fp, "slack").block()).isEmpty();
        Map<String, Object> r = row(
                "SELECT state, occurrences, events, extract(epoch FROM last_seen - first_seen) AS span"
                        + " FROM incidents WHERE incident_id = $1",
                open.incidentId());
        assertThat(r)
                .containsEntry("state", "reminder")
                .containsEntry("occurrences", 4)
                .containsEntry("events", 2);
        assertThat(((Number) r.get("span")).longValue()).isEqualTo(240);
        assertThat(row(
                        "SELECT count(*) AS n FROM delivery_attempts WHERE event_id = $1 AND outcome = 'silenced'",
                        reminder.eventId()))
                .containsEntry("n", 2L);
    }

    @Test
    void aVendorsIdFindsTheIncidentItsChannelOpenedWithItsSource() {
        ClaimStore s = store(Duration.ofHours(1), Duration.ofMinutes(1), "a");
        String fp = "monitor/bs-" + UUID.randomUUID().toString().substring(0, 8);
        String vendorId = "bs-" + UUID.randomUUID();
        AlertEvent open = opened(fp, Severity.CRITICAL);
        s.recordIncident(open).block();
        s.saveVendorRef(open.incidentId(), fp, "pager", vendorId).block();
        s.recordIncident(event(fp, AlertState.REMINDER, Severity.CRITICAL, 3)).block();

        var found = s.incidentByVendorRef("pager", vendorId).block();
        assertThat(found).hasValueSatisfying(i -> {
            assertThat(i.incidentId()).isEqualTo(open.incidentId());
            assertThat(i.fingerprint()).isEqualTo(fp);
            assertThat(i.service()).isEqualTo(open.service());
            assertThat(i.severity()).isEqualTo("critical");
            assertThat(i.state()).isEqualTo("reminder");
            assertThat(i.firstSeen()).isEqualTo(open.firstSeen());
            assertThat(i.lastSeen()).isEqualTo(open.firstSeen() + 180_000);
            assertThat(i.occurrences()).isEqualTo(3);
            assertThat(i.source()).isEqualTo("probe");
        });
        // another channel's ids, an unknown id, and SQL-looking input find nothing
        assertThat(s.incidentByVendorRef("betterstack", vendorId).block()).isEmpty();
        assertThat(s.incidentByVendorRef("pager", "bs-unknown").block()).isEmpty();
        assertThat(s.incidentByVendorRef("pager", "' OR 1=1 --").block()).isEmpty();
    }

    @Test
    void anEventPairingAnIncidentIdWithAnotherFingerprintCannotTouchThatIncident() {
        ClaimStore s = store(Duration.ofHours(1), Duration.ofMinutes(1), "a");
        String fp = "monitor/own-" + UUID.randomUUID().toString().substring(0, 8);
        AlertEvent open = opened(fp, Severity.CRITICAL);
        s.recordIncident(open).block();
        s.saveVendorRef(open.incidentId(), fp, "betterstack", "bs-9").block();
        String incidentRow = "SELECT fingerprint, service, severity, state, first_seen, last_seen, occurrences, events,"
                + " vendor_ids::text AS vendor_ids, updated_at FROM incidents WHERE incident_id = $1";
        Map<String, Object> before = row(incidentRow, open.incidentId());

        // app/demo/<fp> naming <fp>'s incident id: its upsert, lookup and save all miss that row
        AlertEvent resolved = event(fp, AlertState.RESOLVED, Severity.WARNING, 5);
        AlertEvent forged = new AlertEvent(
                1,
                null,
                "app/demo/" + fp,
                open.incidentId(),
                AlertState.RESOLVED,
                Severity.WARNING,
                "demo",
                null,
                "resolved",
                Map.of(),
                Map.of(),
                5,
                resolved.firstSeen(),
                resolved.lastSeen(),
                dev.vigil.schemas.contract.AlertSource.APP,
                false,
                List.of());
        s.recordIncident(forged).block();
        assertThat(s.vendorRef(open.incidentId(), forged.fingerprint(), "betterstack")
                        .block())
                .isEmpty();
        s.saveVendorRef(open.incidentId(), forged.fingerprint(), "betterstack", "forged")
                .block();

        assertThat(row(incidentRow, open.incidentId())).isEqualTo(before);
        assertThat(s.vendorRef(open.incidentId(), fp, "betterstack").block()).contains("bs-9");
    }

    private static void deliver(ClaimStore s, AlertEvent e, String channel, String outcome, Settlement settlement) {
        Claim c = s.claim(e.eventId(), channel).block();
        assertThat(c.status()).isEqualTo(Claim.Status.CLAIMED);
        s.settle(
                        c,
                        new Attempt(
                                e.eventId(),
                                e.incidentId(),
                                e.fingerprint(),
                                e.state(),
                                channel,
                                1,
                                outcome,
                                200,
                                5,
                                null),
                        settlement)
                .block();
    }

    @Test
    void pagedChannelsAreWhereAPageOfThatIncidentAndFingerprintWasDelivered() {
        ClaimStore s = store(Duration.ofHours(1), Duration.ofMinutes(1), "a");
        String fp = "monitor/paged-" + UUID.randomUUID().toString().substring(0, 8);
        AlertEvent open = opened(fp, Severity.CRITICAL);
        AlertEvent reminder = event(fp, AlertState.REMINDER, Severity.CRITICAL, 2);
        AlertEvent escalated = event(fp, AlertState.ESCALATED, Severity.CRITICAL, 3);
        AlertEvent resolved = event(fp, AlertState.RESOLVED, Severity.CRITICAL, 4);
        deliver(s, open, "slack", "delivered", Settlement.DELIVERED);
        deliver(s, open, "discord", "permanent", Settlement.DEAD);
        deliver(s, reminder, "betterstack", "transient", Settlement.RELEASED);
        deliver(s, reminder, "betterstack", "delivered", Settlement.DELIVERED);
        deliver(s, escalated, "pager", "delivered", Settlement.DELIVERED);
        deliver(s, resolved, "log", "delivered", Settlement.DELIVERED); // a resolution is no page
        s.recordSilenced(
                        dev.vigil.notifier.support.TestEvents.with(reminder, "x", Map.of(), List.of(), true),
                        List.of("webhook"))
                .block();
        // another fingerprint's event naming this incident id
        AlertEvent forged = new AlertEvent(
                1,
                null,
                "app/demo/" + fp,
                open.incidentId(),
                AlertState.OPENED,
                Severity.CRITICAL,
                "demo",
                null,
                "x",
                Map.of(),
                Map.of(),
                1,
                open.firstSeen(),
                open.lastSeen(),
                dev.vigil.schemas.contract.AlertSource.APP,
                false,
                List.of());
        deliver(s, forged, "ops", "delivered", Settlement.DELIVERED);

        assertThat(s.pagedChannels(open.incidentId(), fp).block())
                .containsExactlyInAnyOrder("slack", "betterstack", "pager");
        assertThat(s.pagedChannels(open.incidentId(), forged.fingerprint()).block())
                .containsExactly("ops");
        assertThat(s.pagedChannels("nope", fp).block()).isEmpty();
        assertThat(row(
                        "SELECT fingerprint, state FROM delivery_attempts WHERE event_id = $1 AND channel = 'slack'",
                        open.eventId()))
                .containsEntry("fingerprint", fp)
                .containsEntry("state", "opened");
        assertThat(row(
                        "SELECT fingerprint, state FROM delivery_attempts WHERE event_id = $1 AND channel = 'webhook'",
                        reminder.eventId()))
                .containsEntry("fingerprint", fp)
                .containsEntry("state", "reminder");
    }

    @Test
    void aChannelHasOneFailingAlertAcrossInstancesResolvableOnceItsOpenedWasDispatched() {
        ClaimStore a = store(Duration.ofHours(1), Duration.ofMinutes(1), "a");
        ClaimStore b = store(Duration.ofHours(1), Duration.ofMinutes(1), "b");
        String channel = "hook-" + UUID.randomUUID().toString().substring(0, 8);
        FailingChannel early = DeliveryFailing.candidate(channel, List.of("slack", "discord"), 1_000);
        FailingChannel late = DeliveryFailing.candidate(channel, List.of("log"), 2_000);
        List<FailingChannel> opened = Flux.range(0, 8)
                .flatMap(i -> (i % 2 == 0 ? a : b).openFailing(i < 4 ? early : late), 8)
                .collectList()
                .block(Duration.ofSeconds(30));
        FailingChannel open = opened.get(0);
        assertThat(opened).hasSize(8).containsOnly(open);
        assertThat(open).isIn(early, late);
        assertThat(a.openFailing(late).block()).isEqualTo(open);

        // not yet dispatched: a resolution now could be written before its opened
        assertThat(a.dispatchedFailing(channel).block()).isEmpty();
        assertThat(settledDelivered(a, channel)).isFalse();
        b.recordIncident(DeliveryFailing.opened(open, opened(fp(), Severity.CRITICAL), "x", 3_000))
                .block();
        assertThat(a.dispatchedFailing(channel).block()).contains(open);
        assertThat(b.dispatchedFailing("other-" + channel).block()).isEmpty();
        // a delivered settlement on the channel answers what the look-up would; another settlement or channel not
        assertThat(settledDelivered(a, channel)).isTrue();
        assertThat(settledDelivered(b, "other-" + channel)).isFalse();
        String released = id();
        Claim r = b.claim(released, channel).block();
        assertThat(b.settle(r, attempt(released, channel, "transient"), Settlement.RELEASED)
                        .block())
                .isFalse();

        // closing another incident of the channel leaves this one open
        a.closeFailing(channel, open.incidentId() + "0").block();
        assertThat(b.dispatchedFailing(channel).block()).contains(open);
        a.closeFailing(channel, open.incidentId()).block();
        assertThat(b.dispatchedFailing(channel).block()).isEmpty();
        assertThat(settledDelivered(b, channel)).isFalse();
        FailingChannel next = DeliveryFailing.candidate(channel, List.of("log"), 9_000);
        assertThat(b.openFailing(next).block()).isEqualTo(next);
    }

    /**
     * The driver prepares each statement once per connection and PostgreSQL keeps a generic plan for it after a few
     * executions; one made while the claims table was small must not scan the whole table once it has grown.
     */
    @Test
    void settlementsReachTheirClaimThroughTheIndexAfterTheTableHasGrownUnderAPlanMadeWhenItWasSmall(
            dev.vigil.embedded.postgres.EmbeddedPostgres server) throws Exception {
        dev.vigil.embedded.postgres.PostgresDatabase fresh = server.createUniqueDatabase("plans");
        try (fresh) {
            assertThat(Migrations.run(fresh.jdbcUrl(), fresh.user(), fresh.password())
                            .block())
                    .isEqualTo(MigrationsIT.LATEST);
            // one connection, so every statement runs where its plan was cached
            Database one = Database.open(
                    "r2dbc:postgresql://" + fresh.host() + ":" + fresh.port() + "/" + fresh.name(),
                    fresh.user(),
                    fresh.password(),
                    1);
            try (one;
                    java.sql.Connection jdbc = fresh.openJdbcConnection();
                    java.sql.Statement st = jdbc.createStatement()) {
                ClaimStore s = new ClaimStore(one.pool(), Duration.ofHours(1), Duration.ofMinutes(1), "a", 256, 1);
                // batches of several rows while the table is small: the kind of statement a generic plan is kept for
                for (int i = 0; i < 10; i++) {
                    settleTogether(s, 16);
                }
                st.execute("INSERT INTO claims (event_id, channel, status, claimed_at, lease_until)"
                        + " SELECT 'grown-' || g, 'slack', 'delivered', now(), now() FROM generate_series(1, 50000) g");
                long before = flushedSeqScans(one, st);
                for (int i = 0; i < 3; i++) {
                    settleTogether(s, 16);
                }
                assertThat(flushedSeqScans(one, st) - before)
                        .as("scans of the whole claims table by 48 settlements after it grew")
                        .isZero();
            }
        }
    }

    /**
     * A send follows its claim only once the claim is on disk, and a delivery's record is on disk before its event
     * is final: on a server that flushes its WAL at commit (the shared test server does not), claims and settlements
     * made one at a time, as at low load, each wait for a flush.
     */
    @Test
    void claimsAndSettlementsWaitForTheirFlush() throws Exception {
        try (dev.vigil.embedded.postgres.EmbeddedPostgres durable =
                dev.vigil.embedded.postgres.EmbeddedPostgres.builder()
                        .useEnvironment(false)
                        .serverConfig("fsync", "on")
                        .serverConfig("synchronous_commit", "on")
                        .start()) {
            PostgresDatabase db = durable.createDatabase("durable");
            assertThat(Migrations.run(db.jdbcUrl(), db.user(), db.password()).block())
                    .isEqualTo(MigrationsIT.LATEST);
            Database one = Database.open(
                    "r2dbc:postgresql://" + db.host() + ":" + db.port() + "/" + db.name(), db.user(), db.password(), 1);
            try (one;
                    java.sql.Connection jdbc = db.openJdbcConnection();
                    java.sql.Statement st = jdbc.createStatement()) {
                ClaimStore s = new ClaimStore(one.pool(), Duration.ofHours(1), Duration.ofMinutes(1), "a", 256, 1);
                int n = 20;
                long start = flushedWalSyncs(one, st);
                List<String> events = new ArrayList<>();
                List<Claim> claims = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    String event = id();
                    events.add(event);
                    claims.add(s.claim(event, "slack").block(Duration.ofSeconds(30)));
                }
                long claimed = flushedWalSyncs(one, st) - start;
                for (int i = 0; i < n; i++) {
                    s.settle(claims.get(i), attempt(events.get(i), "slack", "delivered"), Settlement.DELIVERED)
                            .block(Duration.ofSeconds(30));
                }
                long settled = flushedWalSyncs(one, st) - start - claimed;
                assertThat(claimed)
                        .as("WAL flushes for %d claims made one by one", n)
                        .isGreaterThanOrEqualTo(n);
                assertThat(settled)
                        .as("WAL flushes for %d settlements made one by one", n)
                        .isGreaterThanOrEqualTo(n);
            }
        }
    }

    /** WAL flushes the server has made so far, after the store's one connection has reported its own. */
    private static long flushedWalSyncs(Database one, java.sql.Statement st) throws Exception {
        forceStatsFlush(one);
        try (java.sql.ResultSet r = st.executeQuery("SELECT wal_sync FROM pg_stat_wal")) {
            r.next();
            return r.getLong(1);
        }
    }

    /** Claims {@code n} new events at once, then settles them at once (the store batches them). */
    private static void settleTogether(ClaimStore s, int n) {
        List<Claim> claims = Flux.range(0, n)
                .flatMap(i -> s.claim(id(), "slack"))
                .collectList()
                .block(Duration.ofSeconds(30));
        Flux.fromIterable(claims)
                .flatMap(c -> s.settle(c, attempt(c.eventId(), "slack", "delivered"), Settlement.DELIVERED))
                .blockLast(Duration.ofSeconds(30));
    }

    /** Scans of the whole claims table so far, after the store's one connection has reported its own. */
    private static long flushedSeqScans(Database one, java.sql.Statement st) throws Exception {
        forceStatsFlush(one);
        try (java.sql.ResultSet r =
                st.executeQuery("SELECT seq_scan FROM pg_stat_user_tables WHERE relname = 'claims'")) {
            r.next();
            return r.getLong(1);
        }
    }

    /**
     * A backend reports its statistics at most once a second; the store's one connection is told to report them at
     * the end of its next statement, and that statement is run.
     */
    private static void forceStatsFlush(Database one) {
        Mono.usingWhen(
                        Mono.from(one.pool().create()),
                        c -> Flux.from(c.createStatement("SELECT pg_stat_force_next_flush()")
                                        .execute())
                                .flatMap(r -> r.map((row, m) -> 1))
                                .then(),
                        c -> Mono.from(c.close()))
                .block(Duration.ofSeconds(30));
    }

    /** Claims a new event on {@code channel}, settles it delivered, and returns what the settlement answered. */
    private boolean settledDelivered(ClaimStore s, String channel) {
        String event = id();
        Claim c = s.claim(event, channel).block();
        return s.settle(c, attempt(event, channel, "delivered"), Settlement.DELIVERED)
                .block();
    }

    private static String fp() {
        return "monitor/f-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
