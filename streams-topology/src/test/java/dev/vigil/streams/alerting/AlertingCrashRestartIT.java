package dev.vigil.streams.alerting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.streams.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Streams instance (topology I + alerting) runs in its own JVM and is killed with SIGKILL in the middle
 * of outages (open transaction, no clean close), then restarted on the same state directory. Read with
 * read_committed, every monitor's incident has exactly one {@code opened}, its reminders once each, and
 * exactly one {@code resolved}: no duplicate, nothing lost.
 */
@WithKafka(createVigilTopics = true)
class AlertingCrashRestartIT {
    private static final int MONITORS = 8;
    /** Hourly windows: each failing window after the first is a reminder (debounce 15 min). */
    private static final String PATTERN = "FFFFFFFFFFOO";
    /**
     * Windows produced before the kill; the rest only after it, so the first instance cannot have finished the
     * incident (however fast it runs) and the kill lands with the incident open.
     */
    private static final int BEFORE_KILL = 8;

    private static final long HOUR = 3_600_000L;
    /** Past hourly windows (a replay of yesterday's results): decided as soon as their one region reports. */
    private static final long BASE =
            System.currentTimeMillis() - Math.floorMod(System.currentTimeMillis(), HOUR) - 24 * HOUR;

    EmbeddedKafka kafka;

    @TempDir
    Path dir;

    @Test
    void crashMidIncidentGivesNoDuplicateOpenedAndLosesNoResolved() throws Exception {
        try (var producer = producer()) {
            for (int m = 0; m < MONITORS; m++) {
                MonitorDefinition def = new MonitorDefinition(
                        1,
                        "x-" + m,
                        null,
                        "https://example.com/" + m,
                        null,
                        3600,
                        2500,
                        List.of("eu-west"),
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null);
                producer.send(new ProducerRecord<>(Topics.MONITORS, def.id(), Json.bytes(def)));
            }
            producer.flush();
        }
        Process first = launch("first");
        CompletableFuture<Void> stream = CompletableFuture.runAsync(() -> produceWindows(0, BEFORE_KILL));
        try {
            await().atMost(Duration.ofSeconds(180))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> readAlerts().size() >= 2 * MONITORS);
            first.destroyForcibly().waitFor();
            int before = readAlerts().size();
            assertThat(before).as("killed mid-incident").isLessThanOrEqualTo(MONITORS * BEFORE_KILL);

            stream.get();
            produceWindows(BEFORE_KILL, PATTERN.length());
            Process second = launch("second");
            try {
                await().atMost(Duration.ofSeconds(180))
                        .pollInterval(Duration.ofSeconds(1))
                        .until(() -> readAlerts().stream()
                                        .filter(e -> e.state() == AlertState.RESOLVED)
                                        .count()
                                >= MONITORS);
                LockSupport.parkNanos(Duration.ofSeconds(2).toNanos()); // anything duplicated would show up by now
            } finally {
                second.destroy();
                second.waitFor();
            }
        } finally {
            first.destroyForcibly();
        }

        List<AlertEvent> alerts = readAlerts();
        assertThat(alerts).extracting(AlertEvent::eventId).doesNotHaveDuplicates();
        Map<String, List<AlertState>> byMonitor = alerts.stream()
                .collect(Collectors.groupingBy(
                        AlertEvent::fingerprint,
                        TreeMap::new,
                        Collectors.mapping(AlertEvent::state, Collectors.toList())));
        List<AlertState> expected = new ArrayList<>();
        expected.add(AlertState.OPENED);
        for (int i = 0; i < 9; i++) {
            expected.add(AlertState.REMINDER);
        }
        expected.add(AlertState.RESOLVED);
        assertThat(byMonitor).hasSize(MONITORS);
        byMonitor.forEach((fp, states) -> assertThat(states).as(fp).containsExactlyElementsOf(expected));
    }

    private void produceWindows(int from, int to) {
        try (var producer = producer()) {
            for (int k = from; k < to; k++) {
                long ws = BASE + k * HOUR;
                for (int m = 0; m < MONITORS; m++) {
                    var r = PATTERN.charAt(k) == 'F'
                            ? Fixtures.failure("x-" + m, "eu-west", ws)
                            : Fixtures.success("x-" + m, "eu-west", ws);
                    producer.send(new ProducerRecord<>(Topics.PROBE_RESULTS, r.monitorId(), Json.bytes(r)));
                }
                producer.flush(); // window by window: the instance is mid-incident when it is killed
                LockSupport.parkNanos(Duration.ofMillis(300).toNanos());
            }
        }
    }

    private KafkaProducer<String, byte[]> producer() {
        return new KafkaProducer<>(kafka.producerProps(), new StringSerializer(), new ByteArraySerializer());
    }

    /** Every alert on vigil.alerts so far, read_committed from the beginning. */
    private List<AlertEvent> readAlerts() {
        List<AlertEvent> out = new ArrayList<>();
        try (var consumer = new KafkaConsumer<>(
                kafka.consumerProps("alert-reader-" + System.nanoTime()),
                new StringDeserializer(),
                VigilSerdes.alertEvent())) {
            var parts = consumer.partitionsFor(Topics.ALERTS).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            long deadline = System.currentTimeMillis() + 20_000;
            while (System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, AlertEvent> r : consumer.poll(Duration.ofMillis(200))) {
                    out.add(r.value());
                }
                if (parts.stream().allMatch(tp -> consumer.position(tp) >= end.get(tp))) {
                    break;
                }
            }
        }
        return out;
    }

    private Process launch(String name) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = List.of(
                java,
                "-Xmx384m",
                "-cp",
                cp,
                AlertingStreamsMain.class.getName(),
                kafka.bootstrapServers(),
                "vigil-alerting-crash-it",
                dir.resolve("state").toString());
        // logs outside the temp dir so they survive a failure for inspection
        Path logs = Path.of(System.getProperty("java.io.tmpdir"), "vigil-alerting-crash-it");
        Files.createDirectories(logs);
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(logs.resolve(name + ".log").toFile())
                .start();
    }
}
