package dev.vigil.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.junit.WithPostgres;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.embedded.postgres.PostgresDatabase;
import dev.vigil.notifier.config.ChannelSpec;
import dev.vigil.notifier.config.ChannelType;
import dev.vigil.notifier.config.NotifierConfig;
import dev.vigil.notifier.config.RoutingSpec;
import dev.vigil.notifier.support.FakeVendor;
import dev.vigil.notifier.support.Stack;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The daily digest end to end on the embedded broker and PostgreSQL, with the fake Slack: events flow through two
 * notifier instances (info ones recorded by a digest channel), and at the digest's time exactly one digest reaches
 * Slack, with the day's sections; a notifier restarted afterwards does not send it again.
 */
@WithKafka
@WithPostgres
class DigestIT {
    /** How long after the instances start the digest is due: enough for them to start and route the events. */
    private static final Duration LEAD = Duration.ofSeconds(40);

    EmbeddedKafka kafka;
    PostgresDatabase db;
    Stack stack;

    @BeforeEach
    void up() {
        stack = new Stack(kafka, db);
    }

    @AfterEach
    void down() {
        stack.close();
    }

    private NotifierConfig config(LocalTime at) {
        NotifierConfig base = stack.config("g-" + UUID.randomUUID(), 50);
        Map<String, ChannelSpec> ch = new LinkedHashMap<>(base.routing().channels());
        ch.put("daily", ChannelSpec.of(ChannelType.DIGEST));
        RoutingSpec routing = new RoutingSpec(
                ch,
                List.of(),
                Map.of("critical", List.of("slack"), "warning", List.of("slack"), "info", List.of("daily")));
        return base.withRouting(routing).withDigest(new NotifierConfig.Digest(at.toString(), "UTC", List.of("slack")));
    }

    /** An event of an incident first seen {@code ago} before now. */
    private static AlertEvent event(
            String fp, AlertState state, Severity severity, int seq, Duration ago, String summary) {
        long first = Instant.now().minus(ago).toEpochMilli();
        String incident = AlertEvent.incidentIdFor(fp, first);
        return new AlertEvent(
                1,
                AlertEvent.topologyEventId(incident, state, seq),
                fp,
                incident,
                state,
                severity,
                fp.substring(fp.indexOf('/') + 1, fp.lastIndexOf('-')),
                null,
                summary,
                null,
                null,
                seq,
                first,
                first + seq,
                AlertSource.PROBE,
                false,
                null);
    }

    private static List<FakeVendor.Request> digests(FakeVendor slack) {
        return slack.requests.stream()
                .filter(r -> r.body().contains("Vigil digest"))
                .toList();
    }

    @Test
    void twoInstancesDeliverTheDigestOnceAtItsTimeWithTheDaysSections() {
        Instant due = Instant.now().plus(LEAD).truncatedTo(ChronoUnit.SECONDS);
        LocalTime at = LocalTime.ofInstant(due, ZoneOffset.UTC);
        NotifierConfig cfg = config(at);
        NotifierService.Running a = stack.start(cfg);
        NotifierService.Running b = stack.start(cfg);

        String suffix = "-" + UUID.randomUUID().toString().substring(0, 6);
        AlertEvent down = event(
                "monitor/checkout" + suffix,
                AlertState.OPENED,
                Severity.CRITICAL,
                1,
                Duration.ofHours(1),
                "checkout is down");
        AlertEvent up = new AlertEvent(
                1,
                AlertEvent.topologyEventId(down.incidentId(), AlertState.RESOLVED, 2),
                down.fingerprint(),
                down.incidentId(),
                AlertState.RESOLVED,
                Severity.CRITICAL,
                down.service(),
                null,
                "checkout is up",
                null,
                null,
                1,
                down.firstSeen(),
                down.lastSeen() + 1,
                AlertSource.PROBE,
                false,
                null);
        AlertEvent open = event(
                "monitor/search" + suffix,
                AlertState.OPENED,
                Severity.WARNING,
                1,
                Duration.ofMinutes(20),
                "search is slow");
        stack.produce(down);
        stack.produce(open);
        for (int i = 1; i <= 3; i++) {
            stack.produce(event(
                    "monitor/deploys" + suffix,
                    AlertState.OPENED,
                    Severity.INFO,
                    i,
                    Duration.ofMinutes(5),
                    "deployed v1." + i));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> Stack.mentions(stack.slack, down.eventId()) == 1);
        stack.produce(up);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> Stack.mentions(stack.slack, up.eventId()) == 1
                        && Stack.mentions(stack.slack, open.eventId()) == 1
                        && a.inFlight() == 0
                        && b.inFlight() == 0);
        assertThat(Instant.now())
                .as("the events were routed before the digest's time")
                .isBefore(due);
        assertThat(digests(stack.slack)).isEmpty();

        await().atMost(LEAD.plusSeconds(40)).until(() -> !digests(stack.slack).isEmpty());
        FakeVendor.Request digest = digests(stack.slack).get(0);
        long sentAt = System.currentTimeMillis();
        assertThat(sentAt).isGreaterThanOrEqualTo(due.toEpochMilli());
        String body = digest.body();
        assertThat(body).contains("New since the previous digest").contains("Still true");
        assertThat(body.indexOf("New since the previous digest")).isLessThan(body.indexOf("Still true"));
        assertThat(body)
                .contains("*Opened* (2)")
                .doesNotContain("Flapping")
                .contains("*Resolved* (1)")
                .contains("*Still open* (1)");
        assertThat(body).contains("[critical] " + down.fingerprint() + " (checkout) at ");
        assertThat(body)
                .contains("[warning] " + open.fingerprint() + " (search) open for ")
                .contains("not acknowledged");
        assertThat(body)
                .contains("*Recorded events* (1)")
                .contains(down.fingerprint().replace("checkout", "deploys")
                        + " (deploys): 3 event(s), latest \\\"deployed v1.");
        assertThat(body).contains("*Worst uptime (time in incident in the window)*");
        assertThat(digest.path()).isEqualTo("/services/T0/B0/secret");

        // both instances checked at the same moment: give the loser's check and any retry time to show up
        await().pollDelay(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(10)).until(() -> true);
        assertThat(digests(stack.slack)).hasSize(1);
        assertThat(a.registry()
                                .counter("vigil.notifier.digests", "outcome", "delivered")
                                .count()
                        + b.registry()
                                .counter("vigil.notifier.digests", "outcome", "delivered")
                                .count())
                .isEqualTo(1.0);

        // a restart after it was sent: not again
        a.close();
        b.close();
        NotifierService.Running c = stack.start(cfg);
        await().atMost(Duration.ofSeconds(30)).until(c::ready);
        await().pollDelay(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> true);
        assertThat(digests(stack.slack)).hasSize(1);
    }
}
