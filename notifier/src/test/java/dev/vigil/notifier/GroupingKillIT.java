package dev.vigil.notifier;

import static dev.vigil.notifier.support.Stack.mentions;
import static dev.vigil.notifier.support.TestEvents.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.junit.WithPostgres;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.embedded.postgres.PostgresDatabase;
import dev.vigil.notifier.config.GroupSpec;
import dev.vigil.notifier.config.NotifierConfig;
import dev.vigil.notifier.config.RouteSpec;
import dev.vigil.notifier.config.RoutingSpec;
import dev.vigil.notifier.support.ChildNotifier;
import dev.vigil.notifier.support.Stack;
import dev.vigil.notifier.support.TestEvents;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole notifier, Kafka consumer included, killed with SIGKILL while Slack's group waits: the events were read,
 * BetterStack's incidents opened, nothing of the group sent or claimed, nothing committed. The restart reads every
 * event again, folds BetterStack and sends Slack one message carrying each event once.
 */
@WithKafka
@WithPostgres
class GroupingKillIT {
    EmbeddedKafka kafka;
    PostgresDatabase db;

    @TempDir
    Path dir;

    private static NotifierConfig grouped(NotifierConfig cfg, String wait) {
        RoutingSpec r = cfg.routing();
        RouteSpec route = new RouteSpec(
                "grouped",
                List.of(),
                List.of(),
                Map.of(),
                List.of("betterstack", "slack"),
                List.of(),
                new GroupSpec(List.of("service"), wait));
        return cfg.withRouting(new RoutingSpec(r.channels(), List.of(route), null));
    }

    private long deliveredClaims() {
        return reactor.core.publisher.Mono.usingWhen(
                        reactor.core.publisher.Mono.from(db.connectionFactory().create()),
                        c -> reactor.core.publisher.Flux.from(
                                        c.createStatement("SELECT count(*) AS n FROM claims WHERE status = 'delivered'")
                                                .execute())
                                .flatMap(r -> r.map((row, m) -> row.get("n", Long.class)))
                                .next(),
                        c -> reactor.core.publisher.Mono.from(c.close()))
                .block(Duration.ofSeconds(10));
    }

    private static long creates(Stack stack) {
        return stack.betterstack.requests.stream()
                .filter(r -> r.path().equals("/api/v2/incidents"))
                .count();
    }

    private static double count(NotifierService.Running n, String channel, String outcome) {
        var c = n.registry()
                .find("vigil.notifier.deliveries")
                .tag("channel", channel)
                .tag("outcome", outcome)
                .counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void sigkillDuringTheGroupWaitThenRestartSendsEachEventToSlackOnceInOneMessage() throws Exception {
        try (Stack stack = new Stack(kafka, db, 1)) {
            String service = "svc-" + UUID.randomUUID().toString().substring(0, 8);
            List<AlertEvent> events = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                AlertEvent e = event("monitor/" + service + "-" + i, AlertState.OPENED, Severity.CRITICAL, 1);
                events.add(TestEvents.with(e, service, e.attributes(), e.channels(), false));
            }
            String group = "g-" + UUID.randomUUID();
            // the killed instance's wait outlasts the test: the group is still gathering when it dies
            NotifierConfig first = grouped(stack.config(group, 0), "5m");
            Path file = dir.resolve("notifier.json");
            Files.writeString(file, Json.string(first));
            assertThat(Files.readString(file)).contains("\"wait\":\"5m\"");
            ProcessBuilder pb = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-Xmx256m",
                            "-cp",
                            System.getProperty("java.class.path"),
                            ChildNotifier.class.getName(),
                            file.toString())
                    .redirectErrorStream(true)
                    // kept beside the test reports, to read when the child misbehaves
                    .redirectOutput(Path.of("target", "grouping-kill-child.log").toFile());
            pb.environment().putAll(stack.env());
            Process child = pb.start();
            try {
                events.forEach(stack::produce);
                // BetterStack does not wait: every incident is opened and settled while Slack's group still gathers
                // (a kill between a claim and its settlement is the claim lease's case, not the wait's)
                await().atMost(Duration.ofSeconds(120))
                        .ignoreExceptions() // the child creates the tables when it starts
                        .until(() -> deliveredClaims() == events.size());
                assertThat(stack.slack.requests).isEmpty();
            } finally {
                child.destroyForcibly().waitFor();
            }

            long createsBefore = creates(stack);
            NotifierService.Running restarted = stack.start(grouped(stack.config(group, 0), "1s"));
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> count(restarted, "slack", "delivered") == events.size() && restarted.inFlight() == 0);

            for (AlertEvent e : events) {
                assertThat(mentions(stack.slack, e.eventId())).as(e.eventId()).isEqualTo(1);
            }
            // read again in one burst, they go out together (in one message or a few, as the polls fall)
            assertThat(restarted
                            .registry()
                            .counter("vigil.notifier.group.events", "channel", "slack")
                            .count())
                    .isGreaterThan(1);
            assertThat(restarted
                            .registry()
                            .get("vigil.notifier.group.waiting")
                            .gauge()
                            .value())
                    .isZero();
            // redelivered because nothing was committed, and folded where the killed instance had delivered
            assertThat(count(restarted, "betterstack", "deduplicated")).isEqualTo(events.size());
            assertThat(creates(stack)).isEqualTo(createsBefore);
        }
    }
}
