package dev.vigil.streams.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.streams.Fixtures;
import dev.vigil.streams.app.StreamsApp;
import dev.vigil.streams.config.StreamsServiceConfig;
import dev.vigil.streams.config.StreamsServiceConfig.KafkaSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.streams.CloseOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code kafka.groupInstanceId}, an instance restarted after a crash takes its tasks back at once: the group
 * coordinator replaces the crashed member with the new one instead of waiting out its session (here a minute, long
 * enough that a dynamic member would still be waiting when this test is done).
 */
@WithKafka
class StaticMembershipIT {
    static final Duration SESSION = Duration.ofSeconds(60);

    EmbeddedKafka kafka;

    @TempDir
    Path dir;

    @Test
    void anInstanceRestartedWithItsMemberIdTakesItsTasksBackWithoutWaitingOutTheCrashedSession() throws Exception {
        kafka.createTopics(Topics.all());
        StreamsServiceConfig base = ItSupport.config(kafka, "vigil-static-it", dir.resolve("state"));
        KafkaSettings k = base.kafka();
        StreamsServiceConfig cfg = base.withKafka(new KafkaSettings(
                k.bootstrapServers(),
                k.applicationId(),
                k.stateDir(),
                k.numStreamThreads(),
                k.replicationFactor(),
                k.numStandbyReplicas(),
                k.commitInterval(),
                Map.of(
                        "consumer.session.timeout.ms",
                        String.valueOf(SESSION.toMillis()),
                        "consumer.heartbeat.interval.ms",
                        "3000"),
                "it-instance-1"));

        StreamsApp.Running first = StreamsApp.start(cfg, ItSupport.env());
        await("first instance running").atMost(Duration.ofSeconds(60)).until(first::running);
        // a crash as the group sees it: the member neither leaves the group nor heartbeats again
        first.streams()
                .close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP)
                        .withTimeout(Duration.ofSeconds(10)));
        first.close();

        long restarted = System.nanoTime();
        try (StreamsApp.Running second = StreamsApp.start(cfg, ItSupport.env())) {
            // a dynamic member would wait for the crashed one's session to expire before any task is assigned
            await("restarted instance running").atMost(SESSION.dividedBy(2)).until(second::running);
            assertThat(Duration.ofNanos(System.nanoTime() - restarted)).isLessThan(SESSION);
            try (var producer = ItSupport.producer(kafka)) {
                ItSupport.define(producer, Fixtures.monitor("static", Fixtures.regions(1)));
                long ws = System.currentTimeMillis() - Math.floorMod(System.currentTimeMillis(), 60_000L) + 60_000L;
                ItSupport.result(producer, Fixtures.success("static", "eu-west", ws));
                producer.flush();
            }
            await("the restarted instance decides").atMost(SESSION.dividedBy(2)).untilAsserted(() -> assertThat(
                            ItSupport.get(second.httpPort(), "/v1/monitors/static")
                                    .body())
                    .contains("\"status\":\"up\""));
        }
    }
}
