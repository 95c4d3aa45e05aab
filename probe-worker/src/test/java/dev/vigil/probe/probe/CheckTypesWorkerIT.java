package dev.vigil.probe.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.probe.ProbeWorker;
import dev.vigil.probe.config.ProbeWorkerConfig;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * The whole worker (file feed, scheduler, router, probes, remote publisher, metrics) with one monitor of each type
 * against real local servers: an https POST with a secret header the target requires, a TCP banner, a local DNS
 * server, a TLS server whose CA is the worker's trustedCaFile; a heartbeat monitor in the same file is not probed,
 * and an http monitor whose secret is unset on this worker yields no result, only a count.
 */
class CheckTypesWorkerIT {
    private static final String SIGNING = "0123456789abcdef0123456789abcdef-types";
    private static final String TOKEN = "it-token-9f8e7d6c";

    @TempDir
    Path dir;

    @Test
    void oneMonitorOfEachTypeReachesIngestWithItsCheckType() throws Exception {
        List<ProbeResult> received = new CopyOnWriteArrayList<>();
        List<String> bodies = new CopyOnWriteArrayList<>();
        DisposableServer ingest = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .route(r -> r.post("/v1/probe-results", (req, res) -> req.receive()
                                .aggregate()
                                .asByteArray()
                                .flatMap(body -> {
                                    bodies.add(new String(body, StandardCharsets.UTF_8));
                                    for (JsonNode n : Json.tree(body)) {
                                        received.add(Json.convert(n, ProbeResult.class));
                                    }
                                    return Mono.from(res.status(202).send());
                                }))
                        .post("/v1/heartbeats", (req, res) -> req.receive()
                                .then(Mono.from(res.status(202).send()))))
                .bindNow();
        TestCertificates certs = TestCertificates.generate(dir.resolve("certs"));
        try (var http = new TestHttpServer(certs.caSigned);
                var banner = new TestTcpServer(s -> {
                    s.getOutputStream().write("220 vigil-test ESMTP\r\n".getBytes(StandardCharsets.UTF_8));
                    s.getOutputStream().flush();
                    TestTcpServer.holdOpen(s);
                });
                var dns = new TestDnsServer();
                var tls = new TestTlsServer(certs.caSigned)) {
            http.token = TOKEN;
            Path monitors = dir.resolve("monitors.yaml");
            Files.writeString(
                    monitors,
                    """
                    monitors:
                      - id: api-post
                        url: %s
                        method: POST
                        headers: {Authorization: {secretEnv: IT_HEALTH_TOKEN}, X-Team: core}
                        body: '{"deep": true}'
                        expect: {statusCodes: ["200"], bodyContains: welcome}
                        intervalSeconds: 10
                        timeoutMs: 2000
                        regions: [eu-west]
                      - id: api-unset-secret
                        url: %s
                        headers: {Authorization: {secretEnv: IT_NOT_SET}}
                        intervalSeconds: 10
                        timeoutMs: 2000
                        regions: [eu-west]
                      - id: smtp
                        type: tcp
                        tcp: {host: 127.0.0.1, port: %d, expect: "220 "}
                        intervalSeconds: 10
                        timeoutMs: 2000
                        regions: [eu-west]
                      - id: zone
                        type: dns
                        dns: {query: vigil.test, recordType: MX, resolver: "%s", expect: [mx1.vigil.test]}
                        intervalSeconds: 10
                        timeoutMs: 2000
                        regions: [eu-west]
                      - id: cert
                        type: tls
                        tls: {host: 127.0.0.1, port: %d}
                        intervalSeconds: 10
                        timeoutMs: 2000
                        regions: [eu-west]
                      - id: nightly
                        type: heartbeat
                        intervalSeconds: 60
                    """
                            .formatted(
                                    http.url("/secure"),
                                    http.url("/secure"),
                                    banner.port(),
                                    dns.resolver(),
                                    tls.port()));
            var d = ProbeWorkerConfig.defaults();
            var cfg = new ProbeWorkerConfig(
                    "eu-west",
                    "types-1",
                    d.regions(),
                    16,
                    monitors.toString(),
                    List.of("127.0.0.0/8"),
                    dir.resolve("certs/ca.crt").toString(),
                    Duration.ofSeconds(10),
                    Duration.ofSeconds(10),
                    d.kafka(),
                    new ProbeWorkerConfig.Http("127.0.0.1", 0),
                    new ProbeWorkerConfig.Remote(
                            true,
                            "http://127.0.0.1:" + ingest.port(),
                            "key-eu",
                            "PROBE_SECRET",
                            1,
                            Duration.ofMillis(50)),
                    List.of("IT_HEALTH_TOKEN", "IT_NOT_SET"));
            try (var worker =
                    ProbeWorker.start(cfg, Map.of("PROBE_SECRET", SIGNING, "IT_HEALTH_TOKEN", "Bearer " + TOKEN))) {
                assertThat(worker.scheduler().monitorsAssigned()).isEqualTo(5);
                assertThat(worker.scheduler().isAssigned("nightly")).isFalse();
                await().atMost(Duration.ofSeconds(40)).until(() -> received.stream()
                        .map(ProbeResult::monitorId)
                        .collect(Collectors.toSet())
                        .containsAll(Set.of("api-post", "smtp", "zone", "cert")));
                await().atMost(Duration.ofSeconds(20))
                        .until(() -> worker.metrics().scrape().contains("vigil_probe_not_run_total{type=\"http\"}"));
                String scrape = worker.metrics().scrape();
                for (String type : List.of("http", "tcp", "dns", "tls")) {
                    // a count of at least 1: the http series exists (at 0) before any probe
                    assertThat(scrape)
                            .containsPattern(
                                    "vigil_probe_results_total\\{error_kind=\"none\",outcome=\"success\",type=\"" + type
                                            + "\"} [1-9]");
                }
            }
            // Closing the worker may publish a skipped result (shutting down) for a window still to come: not a probe.
            assertThat(received.stream().filter(ProbeResult::skipped)).allSatisfy(r -> assertThat(r.skipReason())
                    .isEqualTo(dev.vigil.schemas.contract.SkipReason.SHUTTING_DOWN));
            Map<String, ProbeResult> byId = received.stream()
                    .filter(r -> !r.skipped())
                    .collect(Collectors.toMap(ProbeResult::monitorId, r -> r, (a, b) -> a));
            assertThat(byId).doesNotContainKeys("nightly", "api-unset-secret");
            assertThat(byId.values()).allSatisfy(r -> assertThat(r.outcome())
                    .as(r.monitorId() + ": " + r.detail())
                    .isEqualTo(Outcome.SUCCESS));
            assertThat(byId.get("api-post").checkType()).isEqualTo(CheckType.HTTP);
            assertThat(byId.get("api-post").httpStatus()).isEqualTo(200);
            assertThat(byId.get("smtp").checkType()).isEqualTo(CheckType.TCP);
            assertThat(byId.get("smtp").httpStatus()).isNull();
            assertThat(byId.get("zone").checkType()).isEqualTo(CheckType.DNS);
            assertThat(byId.get("zone").dnsAnswers()).containsExactly("10 mx1.vigil.test", "20 mx2.vigil.test");
            assertThat(byId.get("cert").checkType()).isEqualTo(CheckType.TLS);
            assertThat(byId.get("cert").tlsDaysLeft()).isPositive();
            var posted = http.last("/secure");
            assertThat(posted.method()).isEqualTo("POST");
            assertThat(posted.body()).isEqualTo("{\"deep\": true}");
            assertThat(posted.headers())
                    .containsEntry("authorization", "Bearer " + TOKEN)
                    .containsEntry("x-team", "core");
            assertThat(http.seen).allSatisfy(s -> assertThat(s.headers()).containsKey("authorization"));
            assertThat(bodies).noneMatch(b -> b.contains(TOKEN));
        } finally {
            ingest.disposeNow();
        }
    }
}
