package dev.vigil.streams.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.json.Json;
import dev.vigil.streams.Fixtures;
import dev.vigil.streams.app.StreamsApp;
import dev.vigil.streams.topology.StoreNames;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A window opened and completed within one commit interval reaches the pending store's changelog only as the tombstone
 * of its key (the record cache merges its writes), never with its results, while a window still open at a commit is
 * written with them.
 */
@WithKafka(createVigilTopics = true)
class PendingChangelogIT {
    private static final int MONITORS = 300;
    private static final long HOUR = ItSupport.HOUR;
    private static final long BASE = ItSupport.nextHourStart();

    EmbeddedKafka kafka;

    @TempDir
    Path dir;

    @Test
    void windowsDecidedWithinACommitLeaveAtMostATombstoneOnThePendingChangelog() throws Exception {
        String appId = "pending-changelog-it";
        List<String> regions = Fixtures.regions(3);
        try (var producer = ItSupport.producer(kafka)) {
            for (int m = 0; m < MONITORS; m++) {
                ItSupport.define(
                        producer,
                        new MonitorDefinition(
                                1,
                                "p-" + m,
                                null,
                                "https://example.com/" + m,
                                null,
                                3600,
                                2500,
                                regions,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null));
            }
        }
        try (var app = StreamsApp.start(ItSupport.config(kafka, appId, dir));
                var producer = ItSupport.producer(kafka)) {
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> ItSupport.get(app.httpPort(), "/ready").statusCode() == 200);
            // one window: the regions of a monitor back to back, so nearly every window completes within a commit
            for (int m = 0; m < MONITORS; m++) {
                for (String region : regions) {
                    producer.send(record(Fixtures.success("p-" + m, region, BASE)));
                }
            }
            // one more window with a region missing: open across commits until its deadline (an hour away)
            ItSupport.result(producer, Fixtures.success("p-0", regions.get(0), BASE + HOUR));
            producer.flush();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> ItSupport.readAllVerdicts(kafka).size() >= MONITORS);
            String changelog = appId + "-" + StoreNames.PENDING_STORE + "-changelog";
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> ItSupport.readAll(kafka, changelog, new ByteArrayDeserializer()).stream()
                            .anyMatch(Objects::nonNull));

            List<byte[]> records = ItSupport.readAll(kafka, changelog, new ByteArrayDeserializer());
            long values = records.stream().filter(Objects::nonNull).count();
            assertThat(records).as("the still-open window is on the changelog").anyMatch(Objects::nonNull);
            assertThat(values)
                    .as("windows decided within a commit interval wrote no results to the changelog")
                    .isLessThan(MONITORS / 4);
            assertThat(records.size() - values)
                    .as("at most one tombstone per decided window")
                    .isLessThanOrEqualTo(MONITORS);
        }
    }

    private static ProducerRecord<String, byte[]> record(ProbeResult r) {
        return new ProducerRecord<>("vigil.probe-results", r.monitorId(), Json.bytes(r));
    }
}
