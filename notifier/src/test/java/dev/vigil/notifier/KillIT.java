package dev.vigil.notifier;

import static dev.vigil.notifier.support.Stack.mentions;
import static dev.vigil.notifier.support.TestEvents.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.junit.WithPostgres;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.embedded.postgres.PostgresDatabase;
import dev.vigil.notifier.config.NotifierConfig;
import dev.vigil.notifier.support.ChildNotifier;
import dev.vigil.notifier.support.FakeVendor;
import dev.vigil.notifier.support.Stack;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A notifier process killed with SIGKILL after sending (the vendors answered and the deliveries are recorded) and
 * before committing: the restart re-reads every uncommitted event and sends nothing twice. One partition, and the
 * first event never becomes final, so nothing after it can be committed either.
 */
@WithKafka
@WithPostgres
class KillIT {
    EmbeddedKafka kafka;
    PostgresDatabase db;

    @TempDir
    Path dir;

    private static double count(NotifierService.Running n, String channel, String outcome) {
        var c = n.registry()
                .find("vigil.notifier.deliveries")
                .tag("channel", channel)
                .tag("outcome", outcome)
                .counter();
        return c == null ? 0 : c.count();
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

    @Test
    void sigkillBetweenSendAndCommitThenRestartSendsNothingTwice() throws Exception {
        try (Stack stack = new Stack(kafka, db, 1)) {
            String group = "g-" + UUID.randomUUID();
            List<AlertEvent> delivered = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                delivered.add(event(
                        "monitor/kill" + i + "-" + UUID.randomUUID().toString().substring(0, 6),
                        AlertState.OPENED,
                        Severity.CRITICAL,
                        1));
            }
            AlertEvent stuck = event(
                    "monitor/stuck-" + UUID.randomUUID().toString().substring(0, 6),
                    AlertState.OPENED,
                    Severity.CRITICAL,
                    1);
            // Discord never answers for the stuck event: it is sent to Slack and BetterStack, never final, never
            // committed
            stack.discord.respond(r -> r.body().contains(stuck.eventId()) ? null : FakeVendor.Reply.json(200, "{}"));

            NotifierConfig cfg = stack.config(group, 0);
            Path file = dir.resolve("notifier.json");
            Files.writeString(file, Json.string(cfg));
            ProcessBuilder pb = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-Xmx256m",
                            "-cp",
                            System.getProperty("java.class.path"),
                            ChildNotifier.class.getName(),
                            file.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("child.log").toFile());
            pb.environment().putAll(stack.env());
            Process child = pb.start();
            try {
                stack.produce(stuck);
                delivered.forEach(stack::produce);
                // a child JVM starting beside other ITs on two shared cores: its first deliveries can take a while
                await().atMost(Duration.ofSeconds(120))
                        .until(() -> delivered.stream()
                                        .allMatch(e -> mentions(stack.slack, e.eventId()) == 1
                                                && mentions(stack.discord, e.eventId()) == 1)
                                && mentions(stack.slack, stuck.eventId()) == 1
                                && mentions(stack.discord, stuck.eventId()) >= 1);
                // sent and recorded: 5 events × 3 channels + the stuck event on Slack and BetterStack
                await().atMost(Duration.ofSeconds(30)).until(() -> deliveredClaims() == 17);
            } finally {
                child.destroyForcibly().waitFor();
            }
            int slackBefore = stack.slack.requests.size();
            long bsCreatesBefore = stack.betterstack.requests.stream()
                    .filter(r -> r.path().equals("/api/v2/incidents"))
                    .count();

            stack.discord.respond(r -> FakeVendor.Reply.json(200, "{}"));
            NotifierService.Running restarted = stack.start(cfg);
            // whatever was uncommitted is redelivered; only Discord for the stuck event was never confirmed
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                var c = restarted
                        .registry()
                        .find("vigil.notifier.deliveries")
                        .tag("channel", "discord")
                        .tag("outcome", "delivered")
                        .counter();
                return c != null && c.count() == 1 && restarted.inFlight() == 0;
            });
            // all six events were redelivered (nothing had been committed) and folded where already sent
            assertThat(count(restarted, "slack", "deduplicated")).isEqualTo(6);
            assertThat(count(restarted, "betterstack", "deduplicated")).isEqualTo(6);
            assertThat(count(restarted, "discord", "deduplicated")).isEqualTo(5);
            assertThat(stack.slack.requests).hasSize(slackBefore);
            assertThat(stack.betterstack.requests.stream().filter(r -> r.path().equals("/api/v2/incidents")))
                    .hasSize((int) bsCreatesBefore);
            for (AlertEvent e : delivered) {
                assertThat(mentions(stack.slack, e.eventId())).isEqualTo(1);
                assertThat(mentions(stack.discord, e.eventId())).isEqualTo(1);
            }
            assertThat(mentions(stack.slack, stuck.eventId())).isEqualTo(1);
        }
    }
}
