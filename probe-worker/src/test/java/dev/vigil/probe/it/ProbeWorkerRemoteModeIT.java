package dev.vigil.probe.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.probe.ProbeWorker;
import dev.vigil.probe.config.ProbeWorkerConfig;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.WorkerHeartbeat;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.sign.RequestSigner;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServer;

/** Remote mode without Kafka: monitors from a file, results POSTed to a stand-in ingest that verifies signatures. */
class ProbeWorkerRemoteModeIT {
    private static final String SECRET = "0123456789abcdef0123456789abcdef-remote";

    @TempDir
    Path dir;

    record Received(String requestId, String region, String keyId, boolean signatureValid, List<ProbeResult> results) {}

    record Beat(
            String requestId,
            String region,
            String keyId,
            String contentType,
            boolean signatureValid,
            List<WorkerHeartbeat> heartbeats) {}

    /** A batch as the fake ingest received it: the signing headers, whether the signature holds, the events. */
    record Signed<T>(
            String requestId,
            String region,
            String keyId,
            String contentType,
            boolean signatureValid,
            List<T> events) {}

    private static <T> Mono<Signed<T>> readSigned(
            reactor.netty.http.server.HttpServerRequest req, RequestSigner signer, Class<T> type) {
        return req.receive().aggregate().asByteArray().map(body -> {
            var h = req.requestHeaders();
            boolean valid = signer.verify(
                    Long.parseLong(h.get(RequestSigner.HEADER_TIMESTAMP)),
                    h.get(RequestSigner.HEADER_REQUEST_ID),
                    h.get(RequestSigner.HEADER_REGION),
                    body,
                    h.get(RequestSigner.HEADER_SIGNATURE));
            List<T> events = new java.util.ArrayList<>();
            for (JsonNode n : Json.tree(body)) {
                events.add(Json.convert(n, type));
            }
            return new Signed<>(
                    h.get(RequestSigner.HEADER_REQUEST_ID),
                    h.get(RequestSigner.HEADER_REGION),
                    h.get(RequestSigner.HEADER_KEY_ID),
                    h.get("Content-Type"),
                    valid,
                    events);
        });
    }

    /** A stand-in for ingest's {@code POST /v1/heartbeats}: verifies the signature, records what came, answers {@code status}. */
    private static reactor.netty.http.server.HttpServerRoutes heartbeats(
            reactor.netty.http.server.HttpServerRoutes routes, RequestSigner signer, List<Beat> into, int status) {
        return routes.post("/v1/heartbeats", (req, res) -> readSigned(req, signer, WorkerHeartbeat.class)
                .flatMap(b -> {
                    into.add(new Beat(
                            b.requestId(), b.region(), b.keyId(), b.contentType(), b.signatureValid(), b.events()));
                    if (status == 202) {
                        return Mono.from(res.status(202)
                                .header("Content-Type", "application/json")
                                .sendString(Mono.just("{\"accepted\":1,\"rejected\":[]}")));
                    }
                    return Mono.from(
                            res.status(status)
                                    .header("Content-Type", "application/problem+json")
                                    .sendString(
                                            Mono.just(
                                                    "{\"type\":\"https://vigil.dev/problems/invalid-events\",\"title\":\"No valid event\",\"status\":"
                                                            + status
                                                            + ",\"detail\":\"event 0: workerId: is not the signing key's worker id ('key-eu')\"}")));
                }));
    }

    private static double heartbeatCount(ProbeWorker.Running worker, String result) {
        var c = worker.metrics()
                .registry()
                .find("vigil.probe.heartbeats")
                .tag("result", result)
                .counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void signedBatchesReachIngestAndATransientRefusalIsRetried() throws Exception {
        var signer = new RequestSigner(SECRET.getBytes(StandardCharsets.UTF_8));
        List<Received> received = new CopyOnWriteArrayList<>();
        AtomicInteger calls = new AtomicInteger();
        List<Beat> beats = new CopyOnWriteArrayList<>();
        var ingest = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .route(r -> heartbeats(r, signer, beats, 202)
                        .post("/v1/probe-results", (req, res) -> readSigned(req, signer, ProbeResult.class)
                                .flatMap(b -> {
                                    received.add(new Received(
                                            b.requestId(), b.region(), b.keyId(), b.signatureValid(), b.events()));
                                    // The first delivery meets a busy ingest: 503, to be retried.
                                    int status = calls.incrementAndGet() == 1 ? 503 : 202;
                                    return Mono.from(res.status(status).send());
                                })))
                .bindNow();
        try (var target = new LocalTarget()) {
            Path monitors = dir.resolve("monitors.yaml");
            Files.writeString(
                    monitors,
                    "monitors:\n"
                            + "  - id: remote-api\n    url: " + target.url("/health")
                            + "\n    intervalSeconds: 10\n    timeoutMs: 2000\n    regions: [eu-west]\n"
                            + "  - id: other-region\n    url: " + target.url("/health") + "\n    regions: [us-east]\n");
            var d = ProbeWorkerConfig.defaults();
            var cfg = new ProbeWorkerConfig(
                    "eu-west",
                    "remote-1",
                    d.regions(),
                    16,
                    monitors.toString(),
                    List.of("127.0.0.0/8"),
                    "",
                    Duration.ofSeconds(10),
                    Duration.ofSeconds(10),
                    new ProbeWorkerConfig.Kafka("", d.kafka().topics()),
                    new ProbeWorkerConfig.Http("127.0.0.1", 0),
                    new ProbeWorkerConfig.Remote(
                            true,
                            "http://127.0.0.1:" + ingest.port(),
                            "key-eu",
                            "PROBE_SECRET",
                            1,
                            Duration.ofMillis(50)));
            try (var worker = ProbeWorker.start(cfg, Map.of("PROBE_SECRET", SECRET))) {
                var http = HttpClient.newHttpClient();
                var ready = http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + worker.httpPort() + "/ready"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(ready.statusCode()).isEqualTo(200);
                assertThat(worker.scheduler().monitorsAssigned()).isEqualTo(1);
                await().atMost(Duration.ofSeconds(40))
                        .until(() -> worker.publisher().acknowledged() >= 1);
                // The first heartbeat goes out at start; the worker counts it once ingest took it.
                await().atMost(Duration.ofSeconds(30)).until(() -> heartbeatCount(worker, "acknowledged") >= 1);
                assertThat(heartbeatCount(worker, "failed")).isZero();
                assertThat(worker.metrics().scrape()).contains("vigil_probe_heartbeats_total{result=\"acknowledged\"}");
            }
            // Closing sends a last heartbeat and waits for it.
            assertThat(beats).hasSizeGreaterThanOrEqualTo(2);
            assertThat(beats).allSatisfy(b -> {
                assertThat(b.signatureValid()).isTrue();
                assertThat(b.keyId()).isEqualTo("key-eu");
                assertThat(b.region()).isEqualTo("eu-west");
                assertThat(b.contentType()).startsWith("application/json");
                assertThat(b.heartbeats()).singleElement().satisfies(hb -> {
                    assertThat(hb.workerId()).isEqualTo("remote-1");
                    assertThat(hb.region()).isEqualTo("eu-west");
                    assertThat(hb.version()).isEqualTo(ProbeWorkerConfig.VERSION);
                    assertThat(hb.sentAt()).isPositive();
                });
            });
            assertThat(beats).extracting(Beat::requestId).doesNotHaveDuplicates();
            assertThat(received).hasSizeGreaterThanOrEqualTo(2);
            assertThat(received).allSatisfy(r -> {
                assertThat(r.signatureValid()).isTrue();
                assertThat(r.region()).isEqualTo("eu-west");
                assertThat(r.keyId()).isEqualTo("key-eu");
                assertThat(r.results()).allSatisfy(p -> {
                    assertThat(p.monitorId()).isEqualTo("remote-api");
                    assertThat(p.region()).isEqualTo("eu-west");
                    assertThat(p.windowStart() % 10_000).isZero();
                });
            });
            // The refused batch was sent again under the same request id, so ingest can deduplicate it.
            assertThat(received.get(1).requestId()).isEqualTo(received.get(0).requestId());
            assertThat(received.get(1).results()).isEqualTo(received.get(0).results());
        } finally {
            ingest.disposeNow();
        }
    }

    @Test
    void closeDrainsTheInFlightProbeAndFlushesItsResult() throws Exception {
        var signer = new RequestSigner(SECRET.getBytes(StandardCharsets.UTF_8));
        List<ProbeResult> received = new CopyOnWriteArrayList<>();
        var ingest = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .route(r -> r.post("/v1/probe-results", (req, res) -> readSigned(req, signer, ProbeResult.class)
                        .flatMap(b -> {
                            if (!b.signatureValid()) {
                                return Mono.from(res.status(401).send());
                            }
                            received.addAll(b.events());
                            return Mono.from(res.status(202).send());
                        })))
                .bindNow();
        try (var target = new LocalTarget()) {
            Path monitors = dir.resolve("monitors.yaml");
            Files.writeString(
                    monitors,
                    "monitors:\n  - id: slow\n    url: " + target.url("/slow-health")
                            + "\n    intervalSeconds: 10\n    timeoutMs: 5000\n    regions: [eu-west]\n");
            var d = ProbeWorkerConfig.defaults();
            var cfg = new ProbeWorkerConfig(
                    "eu-west",
                    "remote-2",
                    d.regions(),
                    16,
                    monitors.toString(),
                    List.of("127.0.0.0/8"),
                    "",
                    Duration.ofSeconds(10),
                    Duration.ofSeconds(10),
                    d.kafka(),
                    new ProbeWorkerConfig.Http("127.0.0.1", 0),
                    new ProbeWorkerConfig.Remote(
                            true,
                            "http://127.0.0.1:" + ingest.port(),
                            "key-eu",
                            "PROBE_SECRET",
                            100,
                            Duration.ofMillis(60_000)));
            var worker = ProbeWorker.start(cfg, Map.of("PROBE_SECRET", SECRET));
            // Wait until the probe is on the wire (the target answers after 1.5 s), then shut down.
            await().atMost(Duration.ofSeconds(30)).until(() -> target.requests.get() >= 1);
            assertThat(worker.scheduler().inFlight()).isEqualTo(1);
            worker.close();
            // The flush interval is a minute: only the drain + flush on close can have delivered it.
            assertThat(received).hasSize(1);
            assertThat(received.get(0).monitorId()).isEqualTo("slow");
            assertThat(received.get(0).outcome()).isEqualTo(dev.vigil.schemas.contract.Outcome.SUCCESS);
            assertThat(worker.scheduler().inFlight()).isZero();
        } finally {
            ingest.disposeNow();
        }
    }

    @Test
    void aRefusedHeartbeatIsCountedAndLoggedWhileProbesGoOn() throws Exception {
        var signer = new RequestSigner(SECRET.getBytes(StandardCharsets.UTF_8));
        List<Beat> beats = new CopyOnWriteArrayList<>();
        List<Throwable> beatErrors = new CopyOnWriteArrayList<>();
        var ingest = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .route(r -> heartbeats(r, signer, beats, 422).post("/v1/probe-results", (req, res) -> req.receive()
                        .aggregate()
                        .asByteArray()
                        .flatMap(body -> Mono.from(res.status(202).send()))))
                .bindNow();
        var observer = new dev.vigil.probe.publish.ResultPublisher.Listener() {
            @Override
            public void heartbeatFailed(WorkerHeartbeat heartbeat, Throwable error) {
                beatErrors.add(error);
            }
        };
        try (var target = new LocalTarget()) {
            Path monitors = dir.resolve("monitors.yaml");
            Files.writeString(
                    monitors,
                    "monitors:\n  - id: beat-api\n    url: " + target.url("/health")
                            + "\n    intervalSeconds: 10\n    timeoutMs: 2000\n    regions: [eu-west]\n");
            var d = ProbeWorkerConfig.defaults();
            var cfg = new ProbeWorkerConfig(
                    "eu-west",
                    "remote-3",
                    d.regions(),
                    16,
                    monitors.toString(),
                    List.of("127.0.0.0/8"),
                    "",
                    Duration.ofSeconds(10),
                    Duration.ofSeconds(10),
                    d.kafka(),
                    new ProbeWorkerConfig.Http("127.0.0.1", 0),
                    new ProbeWorkerConfig.Remote(
                            true,
                            "http://127.0.0.1:" + ingest.port() + "/",
                            "key-eu",
                            "PROBE_SECRET",
                            1,
                            Duration.ofMillis(50)));
            try (var worker = ProbeWorker.start(cfg, Map.of("PROBE_SECRET", SECRET), observer)) {
                await().atMost(Duration.ofSeconds(30)).until(() -> heartbeatCount(worker, "failed") >= 1);
                // Probing is not held up by the refused heartbeat: the result still goes out and is acknowledged.
                await().atMost(Duration.ofSeconds(40))
                        .until(() -> worker.publisher().acknowledged() >= 1);
                assertThat(heartbeatCount(worker, "acknowledged")).isZero();
                assertThat(worker.publisher().failed()).isZero();
            }
            // Reached /v1/heartbeats although the configured base URL ends with a slash.
            assertThat(beats).isNotEmpty();
            assertThat(beats.get(0).signatureValid()).isTrue();
            assertThat(beatErrors).isNotEmpty();
            assertThat(beatErrors.get(0).getMessage())
                    .contains("status 422")
                    .contains("workerId: is not the signing key's worker id")
                    .doesNotContain(SECRET);
        } finally {
            ingest.disposeNow();
        }
    }

    @Test
    void aMissingSecretStopsStartUpNamingTheKey() {
        var d = ProbeWorkerConfig.defaults();
        var cfg = new ProbeWorkerConfig(
                "eu-west",
                "remote-1",
                d.regions(),
                16,
                "",
                List.of(),
                "",
                Duration.ofSeconds(10),
                Duration.ofSeconds(10),
                d.kafka(),
                new ProbeWorkerConfig.Http("127.0.0.1", 0),
                new ProbeWorkerConfig.Remote(
                        true, "http://127.0.0.1:1", "key-eu", "PROBE_SECRET", 10, Duration.ofMillis(50)));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ProbeWorker.start(cfg, Map.of()))
                .hasMessageContaining("remote.secretEnv")
                .hasMessageContaining("PROBE_SECRET");
    }
}
