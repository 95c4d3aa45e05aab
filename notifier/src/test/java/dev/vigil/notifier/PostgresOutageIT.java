package dev.vigil.notifier;

import static dev.vigil.notifier.support.Stack.mentions;
import static dev.vigil.notifier.support.TestEvents.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.junit.WithPostgres;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.embedded.postgres.EmbeddedPostgres;
import dev.vigil.embedded.postgres.PostgresDatabase;
import dev.vigil.notifier.support.Stack;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** PostgreSQL stopped for 20 s: consumption pauses, nothing is lost or duplicated, delivery resumes. */
@WithKafka
@WithPostgres(dedicatedServer = true)
class PostgresOutageIT {
    EmbeddedKafka kafka;
    EmbeddedPostgres server;
    PostgresDatabase db;

    @Test
    void deliveryPausesDuringAnOutageAndResumesExactlyOnce() {
        try (Stack stack = new Stack(kafka, db)) {
            var cfg = stack.config("g-" + UUID.randomUUID(), 0);
            var k = cfg.kafka();
            NotifierService.Running n = stack.start(cfg.withKafka(new dev.vigil.notifier.config.NotifierConfig.Kafka(
                    k.bootstrapServers(), k.groupId(), k.topics(), 6, null)));
            AlertEvent before = event(
                    "monitor/before-" + UUID.randomUUID().toString().substring(0, 8),
                    AlertState.OPENED,
                    Severity.WARNING,
                    1);
            stack.produce(before);
            await().atMost(Duration.ofSeconds(30)).until(() -> mentions(stack.discord, before.eventId()) == 1);

            server.stop();
            List<AlertEvent> during = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                AlertEvent e = event(
                        "monitor/outage" + i + "-"
                                + UUID.randomUUID().toString().substring(0, 8),
                        AlertState.OPENED,
                        Severity.WARNING,
                        1);
                during.add(e);
                stack.produce(e);
            }
            // nothing is sent unclaimed while the database is away; six events are in flight (uncommitted) and the
            // consumer has paused its partitions, so the other four wait on the broker
            await().atMost(Duration.ofSeconds(10)).until(n::paused);
            await().during(Duration.ofSeconds(20))
                    .atMost(Duration.ofSeconds(25))
                    .until(() -> n.paused()
                            && during.stream()
                                    .allMatch(e -> mentions(stack.slack, e.eventId()) == 0
                                            && mentions(stack.discord, e.eventId()) == 0));
            assertThat(n.inFlight()).isEqualTo(6);

            server.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> during.stream()
                    .allMatch(
                            e -> mentions(stack.slack, e.eventId()) >= 1 && mentions(stack.discord, e.eventId()) >= 1));
            await().atMost(Duration.ofSeconds(30)).until(() -> n.inFlight() == 0);
            for (AlertEvent e : during) {
                assertThat(mentions(stack.slack, e.eventId())).isEqualTo(1);
                assertThat(mentions(stack.discord, e.eventId())).isEqualTo(1);
            }
            assertThat(mentions(stack.discord, before.eventId())).isEqualTo(1);
        }
    }
}
