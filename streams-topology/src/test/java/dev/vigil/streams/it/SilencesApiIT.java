package dev.vigil.streams.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.streams.Fixtures;
import dev.vigil.streams.app.StreamsApp;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The silences API of a running instance against the embedded broker: POST writes to vigil.silences (answered once
 * Kafka acknowledged), GET sees it once the global store has it, DELETE expires it; a pending silence is deleted
 * with a tombstone; a silence created through the API marks the alert of a matching outage silenced (and only it).
 */
@WithKafka(createVigilTopics = true)
class SilencesApiIT {
    EmbeddedKafka kafka;

    @TempDir
    Path dir;

    @Test
    void createListExpireThroughTheQueryApi() throws Exception {
        try (var app = StreamsApp.start(ItSupport.config(kafka, "vigil-silences-it", dir))) {
            int port = app.httpPort();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> ItSupport.get(port, "/ready").statusCode() == 200);

            HttpResponse<String> created = send(
                    port,
                    "POST",
                    "/v1/silences",
                    """
                    {"fingerprint":"monitor/checkout-*","attributes":{"region":"eu-west"},"durationMinutes":120,
                     "author":"ann","reason":"database upgrade"}""");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            JsonNode silence = ItSupport.json(created);
            String id = silence.path("id").asText();
            assertThat(id).matches("[0-9a-f-]{36}");
            assertThat(created.headers().firstValue("Location")).hasValue("/v1/silences/" + id);
            assertThat(silence.path("state").asText()).isEqualTo("active");
            assertThat(silence.path("endsAt").asLong()
                            - silence.path("startsAt").asLong())
                    .isEqualTo(120 * 60_000L);
            assertThat(silence.path("createdAt").asLong())
                    .isEqualTo(silence.path("startsAt").asLong());

            // acknowledged means it is on the topic, keyed by id
            Map<String, byte[]> topic = readSilencesTopic();
            assertThat(topic).containsKey(id);
            Silence onTopic = Json.read(topic.get(id), Silence.class);
            assertThat(onTopic.fingerprint()).isEqualTo("monitor/checkout-*");
            assertThat(onTopic.attributes()).containsEntry("region", "eu-west");
            assertThat(onTopic.author()).as("the author is the token's name").isEqualTo("test-admin");
            assertThat(onTopic.comment())
                    .as("a free-text author becomes the comment")
                    .isEqualTo("ann");

            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() ->
                            assertThat(ids(ItSupport.get(port, "/v1/silences"))).containsExactly(id));

            HttpResponse<String> bad =
                    send(port, "POST", "/v1/silences", "{\"fingerprint\":\"monitor/x\",\"durationMinutes\":5}");
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(ItSupport.json(bad).path("field").asText()).isEqualTo("reason");

            HttpResponse<String> expired = send(port, "DELETE", "/v1/silences/" + id, null);
            assertThat(expired.statusCode()).as(expired.body()).isEqualTo(200);
            JsonNode e = ItSupport.json(expired);
            assertThat(e.path("state").asText()).isEqualTo("expired");
            assertThat(e.path("endsAt").asLong())
                    .isLessThan(silence.path("endsAt").asLong());

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(ids(ItSupport.get(port, "/v1/silences"))).isEmpty();
                assertThat(ids(ItSupport.get(port, "/v1/silences?state=expired")))
                        .containsExactly(id);
            });

            // a silence that has not started yet is deleted outright (tombstone), and then it is unknown
            long start = System.currentTimeMillis() + 3_600_000L;
            HttpResponse<String> pending = send(
                    port,
                    "POST",
                    "/v1/silences",
                    "{\"service\":\"billing\",\"startsAt\":"
                            + start + ",\"endsAt\":\"" + java.time.Instant.ofEpochMilli(start + 600_000L)
                            + "\",\"author\":\"bob\","
                            + "\"reason\":\"planned\"}");
            assertThat(pending.statusCode()).as(pending.body()).isEqualTo(201);
            String pendingId = ItSupport.json(pending).path("id").asText();
            assertThat(ItSupport.json(pending).path("state").asText()).isEqualTo("pending");
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(ids(ItSupport.get(port, "/v1/silences?state=pending")))
                            .containsExactly(pendingId));
            HttpResponse<String> deleted = send(port, "DELETE", "/v1/silences/" + pendingId, null);
            assertThat(deleted.statusCode()).isEqualTo(200);
            assertThat(ItSupport.json(deleted).path("state").asText()).isEqualTo("deleted");
            assertThat(readSilencesTopic()).containsEntry(pendingId, null);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(ids(ItSupport.get(port, "/v1/silences?state=all"))).containsExactly(id);
                assertThat(send(port, "DELETE", "/v1/silences/" + pendingId, null)
                                .statusCode())
                        .isEqualTo(404);
            });

            // every change is in the audit log, with who and from where; only admin may read it
            HttpResponse<String> audit = ItSupport.get(port, "/v1/audit");
            assertThat(audit.statusCode()).as(audit.body()).isEqualTo(200);
            List<String> actions = new java.util.ArrayList<>();
            ItSupport.json(audit).path("records").forEach(r -> {
                assertThat(r.path("actor").asText()).isEqualTo("test-admin");
                assertThat(r.path("remoteAddress").asText()).isEqualTo("127.0.0.1");
                actions.add(r.path("action").asText() + " " + r.path("target").asText());
            });
            assertThat(actions)
                    .containsExactly(
                            "silence.created silence/" + id,
                            "silence.expired silence/" + id,
                            "silence.created silence/" + pendingId,
                            "silence.deleted silence/" + pendingId);
            HttpResponse<String> asReader = ItSupport.HTTP.send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/v1/audit"))
                            .header("Authorization", "Bearer " + dev.vigil.streams.query.TestApi.READER)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(asReader.statusCode()).isEqualTo(403);
        }
    }

    @Test
    void aSilenceCreatedThroughTheApiMarksTheMatchingOutageSilenced() throws Exception {
        try (var app = StreamsApp.start(ItSupport.config(kafka, "vigil-silenced-outage-it", dir))) {
            int port = app.httpPort();
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> ItSupport.get(port, "/ready").statusCode() == 200);
            HttpResponse<String> created = send(
                    port,
                    "POST",
                    "/v1/silences",
                    "{\"fingerprint\":\"monitor/quiet-*\",\"durationMinutes\":60,\"author\":\"ann\",\"reason\":\"maintenance\"}");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            String id = ItSupport.json(created).path("id").asText();
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() ->
                            assertThat(ids(ItSupport.get(port, "/v1/silences"))).containsExactly(id));

            try (var producer = ItSupport.producer(kafka)) {
                ItSupport.define(producer, Fixtures.monitor("quiet-a", Fixtures.regions(1)));
                ItSupport.define(producer, Fixtures.monitor("loud-b", Fixtures.regions(1)));
                long ws = System.currentTimeMillis() - Math.floorMod(System.currentTimeMillis(), 60_000L) + 60_000L;
                ItSupport.result(producer, Fixtures.failure("quiet-a", "eu-west", ws));
                ItSupport.result(producer, Fixtures.failure("loud-b", "eu-west", ws));
            }
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                Map<String, AlertEvent> opened = new HashMap<>();
                for (AlertEvent e : readAlerts()) {
                    if (e.state() == AlertState.OPENED) {
                        opened.put(e.fingerprint(), e);
                    }
                }
                assertThat(opened).containsKeys("monitor/quiet-a", "monitor/loud-b");
                assertThat(opened.get("monitor/quiet-a").silenced()).isTrue();
                assertThat(opened.get("monitor/loud-b").silenced()).isFalse();
            });
        }
    }

    private List<AlertEvent> readAlerts() {
        List<AlertEvent> out = new ArrayList<>();
        Map<String, Object> props = new HashMap<>(kafka.consumerProps("alert-reader-" + System.nanoTime()));
        props.put("isolation.level", "read_committed");
        try (var consumer = new KafkaConsumer<>(props, new StringDeserializer(), VigilSerdes.alertEvent())) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.ALERTS).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                for (ConsumerRecord<String, AlertEvent> r : consumer.poll(Duration.ofMillis(200))) {
                    out.add(r.value());
                }
                return partitions.stream().allMatch(tp -> consumer.position(tp) >= end.get(tp));
            });
        }
        return out;
    }

    private static HttpResponse<String> send(int port, String method, String path, String json) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Authorization", dev.vigil.streams.query.TestApi.admin())
                .timeout(Duration.ofSeconds(20))
                .method(
                        method,
                        json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            b.header("Content-Type", "application/json");
        }
        return ItSupport.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> ids(HttpResponse<String> res) {
        assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
        List<String> out = new ArrayList<>();
        ItSupport.json(res).path("silences").forEach(n -> out.add(n.path("id").asText()));
        return out;
    }

    /** The latest value per key of vigil.silences (null for a tombstone), read from the beginning. */
    private Map<String, byte[]> readSilencesTopic() {
        Map<String, byte[]> latest = new HashMap<>();
        try (var consumer = new KafkaConsumer<>(
                kafka.consumerProps("silences-reader-" + System.nanoTime()),
                new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.SILENCES).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    latest.put(r.key(), r.value());
                }
                return partitions.stream().allMatch(tp -> consumer.position(tp) >= end.get(tp));
            });
        }
        return latest;
    }
}
