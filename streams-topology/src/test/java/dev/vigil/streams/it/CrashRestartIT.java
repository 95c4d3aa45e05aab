package dev.vigil.streams.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.embedded.net.LocalPorts;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.streams.Fixtures;
import dev.vigil.streams.app.StreamsApp;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The single Streams instance runs in its own JVM and is killed with SIGKILL mid-stream (no clean close,
 * an open transaction), then restarted on the same state directory: every window gets exactly one verdict
 * on {@code vigil.monitor-status} as read with read_committed — none missing, none twice.
 */
@WithKafka(createVigilTopics = true)
class CrashRestartIT {
    private static final int MONITORS = 20;
    private static final int WINDOWS = 30;
    /** Windows produced before the kill; the rest only after it, so the kill lands mid-stream however fast the instance runs. */
    private static final int BEFORE_KILL = 20;

    private static final long HOUR = ItSupport.HOUR;
    /** Hourly windows from the next hour on, so their collection deadlines are still ahead. */
    private static final long BASE = ItSupport.nextHourStart();

    EmbeddedKafka kafka;

    @TempDir
    Path dir;

    @Test
    void crashMidStreamLosesNoVerdictAndDuplicatesNone() throws Exception {
        try (var producer = ItSupport.producer(kafka)) {
            for (int m = 0; m < MONITORS; m++) {
                ItSupport.define(
                        producer,
                        new MonitorDefinition(
                                1,
                                "c-" + m,
                                null,
                                "https://example.com/" + m,
                                null,
                                3600,
                                2500,
                                Fixtures.regions(3),
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null));
            }
            producer.flush();
        }
        int port = LocalPorts.free();
        Path config = writeConfig(port);
        Process first = launch(config, "first");
        CompletableFuture<Void> stream = CompletableFuture.runAsync(() -> produceWindows(0, BEFORE_KILL));
        try {
            await().atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> ItSupport.readAllVerdicts(kafka).size() >= 60);
            first.destroyForcibly().waitFor();
            assertThat(ItSupport.readAllVerdicts(kafka).size())
                    .as("crashed mid-stream")
                    .isLessThanOrEqualTo(MONITORS * BEFORE_KILL);

            stream.get();
            produceWindows(BEFORE_KILL, WINDOWS);
            Process second = launch(config, "second");
            try {
                await().atMost(Duration.ofSeconds(120))
                        .pollInterval(Duration.ofSeconds(1))
                        .until(() -> distinctWindows(ItSupport.readAllVerdicts(kafka))
                                        .size()
                                >= MONITORS * WINDOWS);
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                // the instances' own logs are in a directory JUnit deletes: say here why the restart did not finish
                Set<String> decided = distinctWindows(ItSupport.readAllVerdicts(kafka));
                List<String> undecided = new ArrayList<>();
                for (int m = 0; m < MONITORS; m++) {
                    for (int k = 0; k < WINDOWS; k++) {
                        if (!decided.contains("c-" + m + "@" + (BASE + k * HOUR))) {
                            undecided.add("c-" + m + "@window " + k);
                        }
                    }
                }
                throw new AssertionError(
                        "the restarted instance did not decide every window within 2 minutes (alive: "
                                + second.isAlive() + "); " + undecided.size() + " undecided, first "
                                + undecided.subList(0, Math.min(10, undecided.size()))
                                + "\nits verdict counters:\n" + verdictCounters(port)
                                + "\nits stream threads:\n" + streamThreads(second)
                                + "\nits log ends:\n" + tail(dir.resolve("second.log"), 40),
                        e);
            } finally {
                second.destroy();
                second.waitFor();
            }
        } finally {
            first.destroyForcibly();
        }

        List<MonitorStatus> verdicts = ItSupport.readAllVerdicts(kafka);
        Set<String> windows = distinctWindows(verdicts);
        assertThat(verdicts).as("one verdict per window, none twice").hasSize(windows.size());
        for (int m = 0; m < MONITORS; m++) {
            for (int k = 0; k < WINDOWS; k++) {
                assertThat(windows).contains("c-" + m + "@" + (BASE + k * HOUR));
            }
        }
        assertThat(windows).hasSize(MONITORS * WINDOWS);
    }

    private void produceWindows(int from, int to) {
        try (var producer = ItSupport.producer(kafka)) {
            for (int k = from; k < to; k++) {
                long ws = BASE + k * HOUR;
                for (int m = 0; m < MONITORS; m++) {
                    for (String region : Fixtures.regions(3)) {
                        ItSupport.result(
                                producer,
                                (m + k) % 4 == 0
                                        ? Fixtures.failure("c-" + m, region, ws)
                                        : Fixtures.success("c-" + m, region, ws));
                    }
                }
                producer.flush(); // one window at a time: the instance is mid-stream when it is killed
            }
        }
    }

    private static Set<String> distinctWindows(List<MonitorStatus> verdicts) {
        Set<String> out = new HashSet<>();
        verdicts.forEach(v -> out.add(v.monitorId() + "@" + v.windowStart()));
        return out;
    }

    private Path writeConfig(int port) throws IOException {
        String yaml =
                """
                kafka:
                  bootstrapServers: "%s"
                  applicationId: vigil-crash-it
                  stateDir: "%s"
                  replicationFactor: 1
                  commitInterval: 100ms
                  properties:
                    consumer.session.timeout.ms: "6000"
                    consumer.heartbeat.interval.ms: "1000"
                http:
                  host: 127.0.0.1
                  port: %d
                  advertisedHost: 127.0.0.1
                verdict:
                  punctuationInterval: 200ms
                """
                        .formatted(kafka.bootstrapServers(), dir.resolve("state"), port);
        Path file = dir.resolve("vigil-streams.yaml");
        Files.writeString(file, yaml);
        return file;
    }

    private Process launch(Path config, String name) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd =
                new ArrayList<>(List.of(java, "-Xmx512m", "-cp", cp, StreamsApp.class.getName(), config.toString()));
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".log").toFile())
                .start();
    }

    /** What the instance counted of the results it read: decided, late, duplicate, unmonitored. */
    private static String verdictCounters(int port) {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            return r.body()
                    .lines()
                    .filter(l -> l.startsWith("vigil_verdict_") || l.startsWith("kafka_stream_state"))
                    .collect(java.util.stream.Collectors.joining("\n"));
        } catch (IOException | RuntimeException e) {
            return "(no metrics: " + e + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        }
    }

    /** The instance's stream threads as jcmd prints them: where a stuck one waits. */
    private static String streamThreads(Process instance) {
        try {
            Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
            Process p = new ProcessBuilder(jcmd.toString(), Long.toString(instance.pid()), "Thread.print")
                    .redirectErrorStream(true)
                    .start();
            String dump = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
            StringBuilder out = new StringBuilder();
            for (String thread : dump.split("\n\n")) {
                if (thread.contains("StreamThread")) {
                    out.append(thread.lines().limit(25).collect(java.util.stream.Collectors.joining("\n")))
                            .append("\n\n");
                }
            }
            return out.length() == 0 ? "(no stream thread in the dump)" : out.toString();
        } catch (IOException | RuntimeException e) {
            return "(no thread dump: " + e + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        }
    }

    private static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
