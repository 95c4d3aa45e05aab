package dev.vigil.streams.it;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.streams.config.StreamsServiceConfig;
import dev.vigil.streams.config.StreamsServiceConfig.HttpSettings;
import dev.vigil.streams.config.StreamsServiceConfig.KafkaSettings;
import dev.vigil.streams.config.TopologyConfig.VerdictSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Helpers for the broker-backed integration tests. */
final class ItSupport {
    static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private ItSupport() {}

    static final long HOUR = 3_600_000L;

    /**
     * The start of the next hour: hourly windows from there on have their collection deadlines ahead, so verdicts are
     * decided by completeness (a test's clock never reaches them).
     */
    static long nextHourStart() {
        long now = System.currentTimeMillis();
        return now - Math.floorMod(now, HOUR) + HOUR;
    }

    /** Session timeout low enough that a crashed member's partitions move within seconds. */
    static StreamsServiceConfig config(EmbeddedKafka kafka, String appId, Path stateDir) {
        KafkaSettings k = new KafkaSettings(
                kafka.bootstrapServers(),
                appId,
                stateDir.toString(),
                1,
                1,
                0,
                Duration.ofMillis(100),
                Map.of("consumer.session.timeout.ms", "6000", "consumer.heartbeat.interval.ms", "1000"));
        return StreamsServiceConfig.defaults()
                .withKafka(k)
                .withHttp(HttpSettings.loopback(0))
                .withVerdict(new VerdictSettings(null, null, Duration.ofMillis(200), null))
                .withAuth(StreamsServiceConfig.AuthSettings.of(dev.vigil.streams.query.TestApi.tokens()));
    }

    /** The environment every IT instance shares: the same forwarding credential. */
    static Map<String, String> env() {
        return Map.of(
                StreamsServiceConfig.AuthSettings.DEFAULT_INSTANCE_TOKEN_ENV, dev.vigil.streams.query.TestApi.INSTANCE);
    }

    static KafkaProducer<String, byte[]> producer(EmbeddedKafka kafka) {
        return new KafkaProducer<>(kafka.producerProps(), new StringSerializer(), new ByteArraySerializer());
    }

    /**
     * Sends and waits for the acknowledgement, retrying a failed send: a test must never lose an input record
     * silently (on a loaded machine the embedded broker does time out the odd request).
     */
    static void send(KafkaProducer<String, byte[]> producer, String topic, String key, Object value) {
        var record = new ProducerRecord<>(topic, key, value == null ? null : Json.bytes(value));
        for (int attempt = 1; ; attempt++) {
            try {
                producer.send(record).get(60, java.util.concurrent.TimeUnit.SECONDS);
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                if (attempt == 5) {
                    throw new IllegalStateException("could not produce to " + topic + " after 5 attempts", e);
                }
            }
        }
    }

    static void define(KafkaProducer<String, byte[]> producer, MonitorDefinition def) {
        send(producer, "vigil.monitors", def.id(), def);
    }

    static void result(KafkaProducer<String, byte[]> producer, ProbeResult r) {
        send(producer, "vigil.probe-results", r.monitorId(), r);
    }

    /** Every verdict on vigil.monitor-status so far, read with read_committed from the beginning. */
    static List<MonitorStatus> readAllVerdicts(EmbeddedKafka kafka) {
        return readAll(kafka, "vigil.monitor-status", VigilSerdes.monitorStatus());
    }

    /** Every record value on a topic so far (null for tombstones), read with read_committed from the beginning. */
    static <V> List<V> readAll(
            EmbeddedKafka kafka, String topic, org.apache.kafka.common.serialization.Deserializer<V> values) {
        Map<String, Object> props = kafka.consumerProps("topic-reader-" + System.nanoTime());
        List<V> out = new ArrayList<>();
        try (var consumer = new KafkaConsumer<>(props, new StringDeserializer(), values)) {
            var partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new org.apache.kafka.common.TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<org.apache.kafka.common.TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.currentTimeMillis() + 20_000;
            while (System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, V> r : consumer.poll(Duration.ofMillis(200))) {
                    out.add(r.value());
                }
                boolean done = partitions.stream().allMatch(tp -> consumer.position(tp) >= end.get(tp));
                if (done) {
                    break;
                }
            }
        }
        return out;
    }

    static HttpResponse<String> get(int port, String path) {
        try {
            return HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                            .GET()
                            .header("Authorization", dev.vigil.streams.query.TestApi.admin())
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static JsonNode json(HttpResponse<String> res) {
        return Json.tree(res.body().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
