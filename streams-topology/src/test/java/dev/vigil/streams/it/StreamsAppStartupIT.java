package dev.vigil.streams.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.schemas.topic.Topics.TopicSpec;
import dev.vigil.streams.Fixtures;
import dev.vigil.streams.app.StreamsApp;
import dev.vigil.streams.config.StreamsServiceConfig;
import dev.vigil.streams.config.TopologyConfig;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Start-up checks with a precise message, and the service endpoints of a running instance. */
@WithKafka
class StreamsAppStartupIT {
    EmbeddedKafka kafka;

    @TempDir
    Path dir;

    @Test
    void refusesToStartWithoutItsTopicsOrWithoutCoPartitioning() {
        var topics =
                new TopologyConfig.TopicNames("startup.monitors", "startup.results", "startup.heartbeats", null, null);
        StreamsServiceConfig base = ItSupport.config(kafka, "vigil-startup-it", dir);
        StreamsServiceConfig cfg = base.withTopics(topics);
        assertThatThrownBy(() -> StreamsApp.start(cfg))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("input topics do not exist")
                .hasMessageContaining("startup.results");

        kafka.createTopics(
                new TopicSpec("startup.monitors", 3, true),
                new TopicSpec("startup.results", 6, false),
                new TopicSpec("startup.heartbeats", 3, false));
        assertThatThrownBy(() -> StreamsApp.start(cfg))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("startup.monitors has 3 partitions but startup.results has 6");
    }

    @Test
    void runningInstanceServesHealthReadinessAndMetrics() {
        String suffix = "-ops";
        kafka.createTopics(Topics.all());
        try (var app = StreamsApp.start(ItSupport.config(kafka, "vigil-ops-it" + suffix, dir))) {
            assertThat(ItSupport.get(app.httpPort(), "/health").statusCode()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> ItSupport.get(app.httpPort(), "/ready").statusCode() == 200);
            try (var producer = ItSupport.producer(kafka)) {
                ItSupport.define(producer, Fixtures.monitor("ops", Fixtures.regions(1)));
                long ws = System.currentTimeMillis() - Math.floorMod(System.currentTimeMillis(), 60_000L) + 60_000L;
                ItSupport.result(producer, Fixtures.success("ops", "eu-west", ws));
                producer.flush();
            }
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                            ItSupport.get(app.httpPort(), "/metrics").body())
                    .contains("vigil_verdict_emitted_total{status=\"up\",trigger=\"complete\"} 1.0")
                    .contains("kafka_stream"));
            assertThat(ItSupport.get(app.httpPort(), "/v1/openapi.json").statusCode())
                    .isEqualTo(200);
        }
    }
}
